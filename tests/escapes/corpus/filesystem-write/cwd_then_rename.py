# category: filesystem-write
# signal: marker
# expect: refused
# tripwire: stops open
# source: write in the private working directory, then move the file out of it
import os
with open("staged", "w") as handle:
    handle.write("escaped")
os.replace("staged", "{MARKER_PATH}")

# category: filesystem-write
# signal: marker
# expect: refused
# tripwire: stops os.mkdir
# source: creating a directory is a write to the file system
import os
os.mkdir("{MARKER_PATH}")

# category: processes
# signal: marker liveness
# expect: refused
# tripwire: stops os.system
# source: a shell command through os.system
import os
os.system("touch {MARKER_PATH}")

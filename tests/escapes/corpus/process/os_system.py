# category: process
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: classic; a shell through os.system
import os
os.system("touch {MARKER_PATH}")

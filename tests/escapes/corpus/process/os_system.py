# category: process
# signal: marker
# expect: refused
# source: classic; a shell through os.system
import os
os.system("touch {MARKER_PATH}")

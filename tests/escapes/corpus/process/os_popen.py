# category: process
# signal: marker
# expect: refused
# tripwire: stops open
# source: classic; os.popen
import os
os.popen("touch {MARKER_PATH}").read()

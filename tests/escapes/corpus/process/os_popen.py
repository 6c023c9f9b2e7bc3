# category: process
# signal: marker
# expect: refused
# source: classic; os.popen
import os
os.popen("touch {MARKER_PATH}").read()

# category: forbidden-imports
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: classic; the plainest import
import os
os.system("touch {MARKER_PATH}")

# category: forbidden-imports
# signal: marker
# expect: refused
# source: classic; the plainest import
import os
os.system("touch {MARKER_PATH}")

# category: forbidden-imports
# signal: marker
# expect: refused
# source: from-import of a single function
from os import system
system("touch {MARKER_PATH}")

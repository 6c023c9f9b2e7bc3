# category: forbidden-imports
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: from-import of a single function
from os import system
system("touch {MARKER_PATH}")

# category: module-attributes
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: a real contextlib module imports os
import contextlib
contextlib.os.system("touch {MARKER_PATH}")

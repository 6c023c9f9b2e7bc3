# category: forbidden-imports
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: the C module behind os
import posix
posix.system("touch {MARKER_PATH}")

# category: forbidden-imports
# signal: marker
# expect: refused
# source: the C module behind os
import posix
posix.system("touch {MARKER_PATH}")

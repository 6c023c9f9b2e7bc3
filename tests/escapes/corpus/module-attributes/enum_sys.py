# category: module-attributes
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: a real enum module imports sys
import enum
enum.sys.modules["os"].system("touch {MARKER_PATH}")

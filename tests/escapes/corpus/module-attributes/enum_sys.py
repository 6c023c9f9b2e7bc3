# category: module-attributes
# signal: marker
# expect: refused
# source: a real enum module imports sys
import enum
enum.sys.modules["os"].system("touch {MARKER_PATH}")

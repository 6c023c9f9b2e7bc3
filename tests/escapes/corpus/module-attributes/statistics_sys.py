# category: module-attributes
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: a real statistics module imports sys
import statistics
statistics.sys.modules["os"].system("touch {MARKER_PATH}")

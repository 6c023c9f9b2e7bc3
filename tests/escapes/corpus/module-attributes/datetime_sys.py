# category: module-attributes
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: a real datetime module carries sys
import datetime
datetime.sys.modules["os"].system("touch {MARKER_PATH}")

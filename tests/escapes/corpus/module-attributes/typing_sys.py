# category: module-attributes
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: a real typing module imports sys
import typing
typing.sys.modules["os"].system("touch {MARKER_PATH}")

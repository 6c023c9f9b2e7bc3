# category: module-attributes
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: a real textwrap module imports re
import textwrap
textwrap.re.enum.sys.modules["os"].system("touch {MARKER_PATH}")

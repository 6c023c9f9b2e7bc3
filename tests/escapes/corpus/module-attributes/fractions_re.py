# category: module-attributes
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: a real fractions module imports re
import fractions
fractions.re.enum.sys.modules["os"].system("touch {MARKER_PATH}")

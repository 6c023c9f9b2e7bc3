# category: module-attributes
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: a real re module carries enum, whose sys leads to sys.modules
import re
re.enum.sys.modules["os"].system("touch {MARKER_PATH}")

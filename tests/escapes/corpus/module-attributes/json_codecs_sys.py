# category: module-attributes
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: a real json module carries codecs, which carries sys
import json
json.codecs.sys.modules["os"].system("touch {MARKER_PATH}")

# category: dynamic-code
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: vars() of an allowed module shows its real namespace
import json
vars(json)["codecs"].sys.modules["os"].system("touch {MARKER_PATH}")

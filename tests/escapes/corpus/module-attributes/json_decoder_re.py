# category: module-attributes
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: submodules of an allowed package reached as attributes
import json
json.decoder.re.enum.sys.modules["os"].system("touch {MARKER_PATH}")

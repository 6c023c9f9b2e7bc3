# category: module-attributes
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: a façade function's globals are the real module's namespace
import json
json.dumps.__globals__["__builtins__"]["__import__"]("os").system("touch {MARKER_PATH}")

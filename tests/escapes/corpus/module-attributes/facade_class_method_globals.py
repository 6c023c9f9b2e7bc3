# category: module-attributes
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: a class exported by a façade has methods whose globals are the real module
import json
b = json.JSONDecoder.__init__.__globals__["__builtins__"]
imp = b["__import__"] if isinstance(b, dict) else b.__import__
imp("os").system("touch {MARKER_PATH}")

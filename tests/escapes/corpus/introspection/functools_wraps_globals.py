# category: introspection
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: update_wrapper(updated=("__globals__",)) merges a host module's globals into the program's
import functools
import json
def carrier():
    pass
functools.wraps(json.dumps, assigned=(), updated=("__globals__",))(carrier)
codecs.sys.modules["os"].system("touch {MARKER_PATH}")

# category: module-attributes
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: a real copy module exposes copyreg's dispatch table, whose reducers carry real globals
import copy
for reducer in copy.dispatch_table.values():
    g = getattr(reducer, "__globals__", None)
    if g is not None:
        b = g["__builtins__"]
        imp = b["__import__"] if isinstance(b, dict) else b.__import__
        imp("os").system("touch {MARKER_PATH}")
        break

# category: introspection
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: __reduce_ex__ hands out copyreg functions, whose globals hold real builtins
reconstructor = [].__reduce_ex__(2)[0]
b = reconstructor.__globals__["__builtins__"]
imp = b["__import__"] if isinstance(b, dict) else b.__import__
imp("os").system("touch {MARKER_PATH}")

# category: introspection
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: a decorator receives the raw function object, frames included
def grab(fn):
    b = fn.__globals__["__builtins__"]
    imp = b["__import__"] if isinstance(b, dict) else b.__import__
    imp("os").system("touch {MARKER_PATH}")
    return fn
@grab
def decorated():
    pass

# category: dynamic-code
# signal: marker
# expect: refused
# tripwire: stops compile
# source: locals() and then the builtins behind it
def f():
    return locals()
f()
b = globals()["__builtins__"]
(b["exec"] if isinstance(b, dict) else b.exec)("import os; os.system('touch {MARKER_PATH}')")

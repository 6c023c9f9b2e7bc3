# category: introspection
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: object.__getattribute__ bypasses any custom attribute hook
imp = object.__getattribute__(len, "__self__").__import__
imp("os").system("touch {MARKER_PATH}")

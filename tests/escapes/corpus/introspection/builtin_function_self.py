# category: introspection
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: a builtin function's __self__ is the builtins module
len.__self__.__import__("os").system("touch {MARKER_PATH}")

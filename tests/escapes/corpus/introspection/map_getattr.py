# category: introspection
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: map() calls getattr in C for each name
self_ = list(map(getattr, [len], ["__self__"]))[0]
list(map(getattr, [self_], ["__import__"]))[0]("os").system("touch {MARKER_PATH}")

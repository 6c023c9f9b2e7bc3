# category: introspection
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: type.__call__ reaches the real three-argument type() through a slot wrapper
Evil = type.__call__(type, "Evil", (), {"__getattr__": lambda self, name: len.__self__.__import__("os")})
Evil().anything.system("touch {MARKER_PATH}")

# category: advisories
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: smolagents CVE-2025-9959: dunder checks missed on some node kinds; the chain goes through a class object
class Carrier:
    pass
for cls in Carrier.__mro__[-1].__subclasses__():
    if cls.__name__ == "_wrap_close":
        cls.__init__.__globals__["system"]("touch {MARKER_PATH}")

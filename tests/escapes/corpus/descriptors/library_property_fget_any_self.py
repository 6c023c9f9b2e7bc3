# category: descriptors
# signal: leak
# leak: <function _NetlocResultMixinBase\.hostname at|secret-host
# plain: skip (a leak is judged only with the language layer on)
# tripwire: harmless (no audited event; the harm is a raw library getter run with any self, judged with the language layer on)
# source: a property read from a library class is the descriptor itself, and its fget is the library's Python function: unchecked, it would run with whatever self the program passes and read that object's names natively (here the program's own _hostinfo), a native reader of names the program sets
import urllib.parse
class Impostor:
    _hostinfo = ("secret-host", None)
getter = urllib.parse.ParseResult.hostname.fget
try:
    value = getter(Impostor())
except TypeError as error:
    value = type(error).__name__
return [repr(getter), value]

# category: format-string
# signal: leak
# leak: _wrap_close|BuiltinImporter
# expect: refused
# tripwire: harmless (it only discloses interpreter internals, judged with the language layer on)
# source: pyjail string.Formatter field walk to the subclasses list
import string
return string.Formatter().format("{0.__class__.__base__.__subclasses__}", 1)

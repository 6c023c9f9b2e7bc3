# category: introspection
# signal: leak
# leak: _wrap_close|BuiltinImporter
# expect: refused
# tripwire: harmless (it only discloses interpreter internals, judged with the language layer on)
# source: pyjail name obfuscation: underscores from unicodedata.lookup, full-width letters normalised by NFKC
import unicodedata
u = unicodedata.lookup("LOW LINE") * 2
n = u + unicodedata.normalize("NFKC", "ｓｕｂｃｌａｓｓｅｓ") + u
return repr(getattr(object, n)())

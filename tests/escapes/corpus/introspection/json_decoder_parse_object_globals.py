# category: introspection
# signal: leak
# leak: <module 'json.scanner'|<module 're'|'__builtins__'
# expect: refused
# tripwire: harmless (it only discloses interpreter internals, judged with the language layer on)
# source: pyjail __globals__ route, from the library function a JSONDecoder subclass instance keeps as a public attribute
import json
class D(json.JSONDecoder):
    pass
return repr(getattr(D().parse_object, "__glo" + "bals__"))

# category: format-string
# signal: leak
# leak: <module 'builtins'|<built-in function __import__>|/sandbox/
# expect: refused
# tripwire: harmless (it only discloses interpreter internals, judged with the language layer on)
# source: a value pattern's dotted name (str.format) is read natively and compared with the subject, whose __eq__ receives the real str.format; it walks attributes and items past the guards
import json
got = []
class Spy:
    def __eq__(self, other):
        got.append(other)
        return False
    __hash__ = None
match Spy():
    case str.format:
        pass
render = got[0]
return render("{0.__globals__[__file__]} {0.__globals__[__builtins__][__import__]} {1.__self__}", json.dumps, len)

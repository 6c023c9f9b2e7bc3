# category: check-then-use
# signal: leak
# leak: private entry read
# plain: skip (a leak is judged only with the language layer on)
# tripwire: harmless (no audited event; the harm is a read the item guard refuses by the key's text, judged with the language layer on)
# source: the item guard refused a "_" key on a mapping proxy (a class namespace is one) only when the key was a str: any other object whose hash is the private name's and whose __eq__ answers True found the private entry, so the text checked was not the key the lookup used; here the proxy is a pattern's groupindex, the one a program holds
import re
index = re.compile("(?P<_hidden>x)(?P<shown>y)").groupindex
class Collides:
    def __hash__(self):
        return hash("_hidden")
    def __eq__(self, other):
        return True
try:
    print("private entry read", index[Collides()])
except TypeError:
    print("refused")

# category: check-then-use
# signal: leak
# leak: bound by equality
# plain: skip (a leak is judged only with the language layer on)
# tripwire: harmless (no audited event; the harm is a keyword name the call guard would refuse, judged with the language layer on)
# source: keyword names unpacked with ** must be exact str, but a partial's keywords, a partialmethod's keywords and a contextmanager object's kwds are dicts the program could change, and the objects unpack them into their call themselves, past that check: a str subclass key bound to the parameter its __eq__ picked
import functools
class Key(str):
    def __hash__(self):
        return hash("flag")
    def __eq__(self, other):
        return other == "flag"
def g(*, flag=False):
    return flag
for holder in (functools.partial(g), functools.partialmethod(g)):
    try:
        holder.keywords[Key("plain")] = True
        print("stored")
    except TypeError:
        print("refused")
p = functools.partial(g)
try:
    p.keywords[Key("plain")] = True
    if p():
        print("bound by equality")
except TypeError:
    print("refused")

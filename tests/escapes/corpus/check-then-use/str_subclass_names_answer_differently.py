# category: check-then-use
# signal: leak
# leak: __globals__'\]|\('__globals__',\)|: \['__globals__'
# plain: skip (a leak is judged only with the language layer on)
# tripwire: harmless (no audited event; the harm is a name the checks refused ending up on a class, judged with the language layer on)
# source: variant of check-then-use/*: a str subclass whose __str__, __hash__ and __eq__ answer differently from its text, given as an attribute name (getattr, hasattr, setattr), as field and member names (namedtuple, the enum functional API, functional TypedDict and NamedTuple, SimpleNamespace keywords), and an iterable of names that answers differently on its second pass
import types, collections, enum, typing
out = []
def t(label, g):
    try:
        out.append(label + ": " + repr(g())[:150])
    except BaseException as e:
        out.append(label + " !" + type(e).__name__ + ": " + str(e)[:100])
class Liar(str):
    calls = 0
    def __str__(self):
        return "__globals__"
    def __hash__(self):
        return hash("name")
    def __eq__(self, other):
        Liar.calls += 1
        return True
def f(): pass
name = Liar("name")
t("getattr", lambda: getattr(f, name))
t("hasattr", lambda: hasattr(f, name))
ns = types.SimpleNamespace()
t("setattr", lambda: setattr(ns, name, 1) or vars(ns))
t("namedtuple", lambda: collections.namedtuple("N", [name])._fields)
t("enum", lambda: [m.name for m in enum.Enum("E", [name])])
t("typeddict", lambda: list(typing.TypedDict("T", {name: int})({name: 1})))
t("simplens kw", lambda: vars(types.SimpleNamespace(**{name: 1})))
class Flip:
    n = 0
    def __iter__(self):
        Flip.n += 1
        return iter(["ok"] if Flip.n == 1 else ["__globals__"])
t("namedtuple flip", lambda: collections.namedtuple("N2", Flip())._fields)
t("enum flip", lambda: [m.name for m in enum.Enum("E2", Flip())])
t("nt kw", lambda: typing.NamedTuple("N3", [(name, int)])._fields)
return out

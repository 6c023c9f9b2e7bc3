# category: check-then-use
# signal: leak
# leak: eq 'func'|bind to kwonly: \(1, True\)|partial kw: \(1, 5\)
# plain: skip (a leak is judged only with the language layer on)
# tripwire: harmless (no audited event; this case records how the interpreter matches keyword names)
# source: a str subclass given as a ** keyword name: CPython matches it to a Python function's parameters by calling its __eq__ with each parameter name, so its text is not the parameter it binds (here: the text 'plain' binds default_factory of dataclasses.field, the flag of a program function, and the guard's own func parameter is offered first); any check of keyword names by their text must copy them to exact str first
import types, copy, dataclasses, functools
out = []
def t(label, g):
    try:
        out.append(label + ": " + repr(g())[:200])
    except BaseException as e:
        out.append(label + " !" + type(e).__name__ + ": " + str(e)[:160])
def make(target):
    class Key(str):
        def __hash__(self):
            return hash(target)
        def __eq__(self, other):
            out.append("eq " + repr(other)[:60])
            return other == target
    return Key("plain")
def hook(*a):
    out.append("hook called " + repr(a)[:100])
    return 1
k = make("__deepcopy__")
t("ns", lambda: types.SimpleNamespace(**{k: hook}))
def g(a, *, flag=False):
    return (a, flag)
t("bind to kwonly", lambda: g(1, **{make("flag"): True}))
t("field", lambda: dataclasses.field(**{make("default_factory"): hook}))
t("partial kw", lambda: functools.partial(g, **{make("flag"): 5})(1))
t("sorted kw", lambda: sorted([3, 1], **{make("reverse"): True}))
return out

# category: facade-bypass
# signal: leak
# leak: <function _GenericAlias\.copy_with|ran with foreign self
# expect: refused
# plain: skip (a leak is judged only with the language layer on)
# tripwire: harmless (no audited event; the harm is the raw library method, judged with the language layer on)
# source: rule 7's sweep (sandbox._library._sweep) walked root.__mro__ root first and recorded each class in _swept once its own members were replaced; a RecursionError at a chosen depth after the root was recorded but before a base was swept left the root marked swept, and reveal_class(root) never looked at its bases again: type(typing.Literal[1]) was then _LiteralGenericAlias with the inherited _GenericAlias.copy_with raw, which runs with any self
import typing
alias = typing.Literal[1]
state = {"got": None}
def pad(k):
    if k == 0:
        return type(alias)
    return pad(k - 1)
def deep(n):
    try:
        deep(n + 1)
    except RecursionError:
        pass
    k = 40
    while state["got"] is None and k >= 0:
        try:
            state["got"] = pad(k)
        except RecursionError:
            pass
        k -= 1
deep(0)
L = state["got"]
class P:
    pass
p = P()
text = repr(L.copy_with)
try:
    L.copy_with(p, (int,))
except AttributeError:
    pass  # the raw method ran with a foreign self: it read p.__origin__
return "ran with foreign self: " + text

# category: check-then-use
# signal: leak
# leak: class made
# plain: skip (a leak is judged only with the language layer on)
# tripwire: harmless (no audited event; the harm is a class keyword whose text was not the name checked, judged with the language layer on)
# source: a class statement's keywords (unpacked with ** in the statement) were checked by membership in the allowed names, which compares a str subclass by its own __eq__: a key whose text is no allowed name passed, and its __eq__ ran inside the runtime's binding of the metaclass call
from typing import TypedDict
class Key(str):
    def __hash__(self):
        return hash("total")
    def __eq__(self, other):
        return other == "total"
try:
    class T(TypedDict, **{Key("plain"): False}):
        a: int
    print("class made")
except TypeError:
    print("refused")

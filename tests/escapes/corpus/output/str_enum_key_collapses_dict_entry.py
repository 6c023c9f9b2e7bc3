# category: output
# signal: leak
# leak: ^\[2, \{"x": "plain"\}\]$
# plain: skip (checks the sandbox's JSON copy of the return value)
# tripwire: harmless (no audited event: the JSON copy of a dict)
# source: a str enum member with its own __hash__ and __eq__ is a key distinct from its text in the program's dict, and the JSON copy writes both under the same text so one entry silently replaces the other
import enum
class E(str, enum.Enum):
    A = "x"
    def __hash__(self):
        return 12345
    def __eq__(self, other):
        return self is other
d = {E.A: "member", "x": "plain"}
return [len(d), d]

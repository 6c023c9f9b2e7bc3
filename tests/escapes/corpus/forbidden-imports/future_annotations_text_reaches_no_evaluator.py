# category: forbidden-imports
# signal: marker
# expect: refused
# tripwire: harmless (without the language layer the real typing.get_type_hints evaluates the text: os.system is an audited call the tripwire stops)
# plain: skip (the program is a function body, where a future import is a syntax error)
# source: from __future__ import annotations keeps every annotation as its text (PEP 563); the text of a NamedTuple's, a TypedDict's and a dataclass's fields, a function's parameters and return, and a local's must reach nothing that runs it, only typing.get_type_hints would, and it is not in the facade
from __future__ import annotations
import dataclasses
import typing
from typing import NamedTuple, TypedDict

class T(NamedTuple):
    x: __import__("os").system("touch {MARKER_PATH}")

class D(TypedDict):
    y: __import__("os").system("touch {MARKER_PATH}")

@dataclasses.dataclass
class A:
    z: __import__("os").system("touch {MARKER_PATH}") = 0

def f(a: __import__("os").system("touch {MARKER_PATH}")) -> __import__("os").system("touch {MARKER_PATH}"):
    b: __import__("os").system("touch {MARKER_PATH}") = a
    return b

f(1)
T(1)
D(y=1)
print(dataclasses.fields(A)[0].type, repr(A()), T._fields)
typing.get_type_hints(T)

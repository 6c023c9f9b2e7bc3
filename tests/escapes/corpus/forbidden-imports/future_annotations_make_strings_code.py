# category: forbidden-imports
# signal: marker
# expect: refused
# tripwire: harmless (a future import is valid only at the top of a module; the program is a function body, so without the language layer it does not compile)
# plain: skip (the program is a function body, where a future import is a syntax error)
# source: variant of dynamic-code/typing_get_type_hints_eval: from __future__ import annotations turns every annotation into a string, which a dataclass's field and typing's readers hold as code
from __future__ import annotations
import dataclasses, typing
@dataclasses.dataclass
class A:
    x: __import__("os").system("touch {MARKER_PATH}")
typing.get_type_hints(A)

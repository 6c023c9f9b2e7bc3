# category: forbidden-imports
# signal: marker
# expect: refused
# tripwire: harmless (a program's leading future import is applied before compiling, so without the language layer the real typing.get_type_hints evaluates the text: os.system is an audited call the tripwire stops)
# plain: skip (the program is a function body, where a future import is a syntax error)
# source: variant of dynamic-code/typing_get_type_hints_eval: from __future__ import annotations turns every annotation into a string, which a dataclass's field and typing's readers hold as code; the import is allowed at the top, and no reader that evaluates the text is (get_type_hints is not in the typing facade)
from __future__ import annotations
import dataclasses, typing
@dataclasses.dataclass
class A:
    x: __import__("os").system("touch {MARKER_PATH}")
typing.get_type_hints(A)

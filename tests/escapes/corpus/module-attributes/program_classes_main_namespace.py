# category: module-attributes
# signal: leak
# leak: <module |'__builtins__'|<built-in function (?:open|eval|exec|compile|__import__)>|_ProgramModuleStandIn|<function (?:get_type_hints|_eval_type|_create_fn|_is_type|global_enum|make_dataclass) at|typing\.ForwardRef'>
# plain: skip (a leak is judged only with the language layer on)
# tripwire: harmless (no audited event; the harm is a module namespace or the real builtins handed to the program, judged with the language layer on)
# source: a program's classes are in __main__, and sys.modules['__main__'] is what dataclasses (a quoted ClassVar or InitVar, the globals of the methods it generates), typing's get_type_hints and ForwardRef evaluation, and enum's global export look up by a class's module; a program that could name another module for its class, or reach that namespace, would have library code evaluate or write in a namespace whose builtins are real
import collections
import dataclasses
import enum
import typing
found = []
def attempt(label, make):
    try:
        found.append([label, repr(make())[:200]])
    except Exception as error:
        found.append([label, type(error).__name__])
@dataclasses.dataclass(frozen=True, order=True)
class Point:
    x: int
    tag: "ClassVar[str]" = "p"
    scale: "dataclasses.InitVar[int]" = 1
    kind: "typing.ClassVar[int]" = 0
Row = typing.NamedTuple("Row", [("a", "Point")])
dunder = "__" + "{}" + "__"
for name in ("globals", "builtins", "module", "dict"):
    attempt("init " + name, lambda: getattr(Point.__init__, dunder.format(name)))
    attempt("class " + name, lambda: getattr(Point, dunder.format(name)))
attempt("class vars", lambda: [getattr(value, dunder.format("globals"), None) for value in vars(Point).values()])
attempt("alias args", lambda: getattr(typing.List["Point"], dunder.format("args")))
for name in ("get_type_hints", "ForwardRef", "_eval_type", "sys", "get_args"):
    attempt("typing " + name, lambda: getattr(typing, name))
for name in ("sys", "_create_fn", "make_dataclass", "_is_type"):
    attempt("dataclasses " + name, lambda: getattr(dataclasses, name))
attempt("enum global_enum", lambda: getattr(enum, "global_enum"))
attempt("enum module", lambda: enum.Enum("Color", "RED", module="builtins"))
attempt("namedtuple module", lambda: collections.namedtuple("Pair", "a b", module="builtins"))
attempt("format walk", lambda: "{0.__init__.__globals__}".format(Point))
attempt("format module", lambda: "{0.__module__}".format(Point))
attempt("fields", lambda: [(f.name, f.type) for f in dataclasses.fields(Point)])
attempt("point", lambda: Point(1, scale=2))
found.append(str(Point))
return found

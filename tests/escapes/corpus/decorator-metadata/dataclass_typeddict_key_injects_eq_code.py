# category: decorator-metadata
# signal: marker
# expect: refused
# tripwire: harmless (in every mode the methods dataclass generates in the program's module see the program's builtins, which have no __import__: the program gets a NameError)
# source: typing.TypedDict's functional form takes any string as a key and stores it in the class's __annotations__; safe_dataclass checks those names with readable_field_name (no leading "_", not a blocked name) but never that they are identifiers, and dataclass pastes each field name into the source of the __eq__ it generates and execs with the real builtins (a newline ends the generated line, "#" comments out the rest)
import typing, dataclasses
name = "a)\n  __import__('os').system('touch {MARKER_PATH}')\n if 1:#"
Row = typing.TypedDict("Row", {name: int})
dataclasses.dataclass(init=False, repr=False)(Row)
return "done"

# category: decorator-metadata
# signal: leak
# leak: site-packages|python3\.11|<module 'builtins'
# expect: refused
# tripwire: harmless (in every mode the methods dataclass generates in the program's module see the program's builtins, which have no __import__: the program gets a NameError)
# source: as dataclass_typeddict_key_injects_eq_code: a TypedDict key that is not an identifier becomes code in the __eq__ source that dataclass execs with the real builtins; with all three layers on the injected code reads only what raises no audit event (the real sys and builtins modules, the host's sys.path, the environment) and parks it on a library object the program can read back
import typing, dataclasses
name = "a)\n  m=__import__('sys').modules;__import__('dataclasses').MISSING.__class__.box=(m['sys'].path,repr(m['builtins']),sorted(__import__('os').environ)[:20])\n if 1:#"
Row = typing.TypedDict("Row", {name: int})
dataclasses.dataclass(init=False, repr=False)(Row)
return str(dataclasses.MISSING.box)

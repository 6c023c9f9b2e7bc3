# category: decorator-metadata
# signal: marker
# expect: refused
# tripwire: harmless (in every mode the methods dataclass generates in the program's module see the program's builtins, which have no __import__: the program gets a NameError)
# source: unsafe_hash=True generates __hash__ from the field names of the class and its bases, pasted into source; a renamed inherited field object runs an expression with the real builtins on hash()
import dataclasses
Field = type(dataclasses.field())
class Renamable(Field):
    pass
@dataclasses.dataclass
class Base:
    x: int = Renamable(0, dataclasses.MISSING, False, False, None, True, None, False)
dataclasses.fields(Base)[0].name = "x,[0][__import__('os').system('touch {MARKER_PATH}')]"
@dataclasses.dataclass(init=False, repr=False, eq=False, unsafe_hash=True)
class Child(Base):
    pass
hash(Child())
return "hashed"

# category: decorator-metadata
# signal: marker
# expect: refused
# tripwire: harmless (in every mode the methods dataclass generates in the program's module see the program's builtins, which have no __import__: the program gets a NameError)
# source: dataclass copies field objects from base classes and pastes their names into the source of the __init__ it generates and execs with the real builtins; a field object of a program subclass of dataclasses.Field is renamed after the base was decorated
import dataclasses
Field = type(dataclasses.field())
class Renamable(Field):
    pass
@dataclasses.dataclass
class Base:
    x: int = Renamable(0, dataclasses.MISSING, False, False, None, False, None, False)
dataclasses.fields(Base)[0].name = "a=[0][__import__('os').system('touch {MARKER_PATH}')], *rest"
try:
    @dataclasses.dataclass
    class Child(Base):
        pass
except TypeError:
    pass
return "decorated"

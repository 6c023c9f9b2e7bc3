# category: decorator-metadata
# signal: marker
# expect: refused
# tripwire: harmless (in every mode the methods dataclass generates in the program's module see the program's builtins, which have no __import__: the program gets a NameError)
# source: the generated __eq__ pastes every compared field name into its source (self.NAME,); a renamed inherited field object adds an expression that runs with the real builtins on the first comparison
import dataclasses
Field = type(dataclasses.field())
class Renamable(Field):
    pass
@dataclasses.dataclass
class Base:
    x: int = Renamable(0, dataclasses.MISSING, False, False, None, True, None, False)
dataclasses.fields(Base)[0].name = "x,[0][__import__('os').system('touch {MARKER_PATH}')]"
@dataclasses.dataclass(init=False, repr=False)
class Child(Base):
    pass
return Child() == Child()

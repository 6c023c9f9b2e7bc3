# category: decorator-metadata
# signal: marker
# expect: refused
# tripwire: harmless (in every mode the methods dataclass generates in the program's module see the program's builtins, which have no __import__: the program gets a NameError)
# source: the generated __repr__ pastes every field name twice into an f-string of its source; a renamed inherited field object holding a replacement field runs an expression with the real builtins when the object is printed
import dataclasses
Field = type(dataclasses.field())
class Renamable(Field):
    pass
@dataclasses.dataclass
class Base:
    x: int = Renamable(0, dataclasses.MISSING, False, True, None, False, None, False)
def codes(text):
    return "bytes(" + str(list(text.encode())) + ").decode()"
payload = "[0][__import__(" + codes("os") + ").system(" + codes("touch {MARKER_PATH}") + ")]"
dataclasses.fields(Base)[0].name = "{" + payload + "}{'"
@dataclasses.dataclass(init=False, eq=False)
class Child(Base):
    pass
return repr(Child())

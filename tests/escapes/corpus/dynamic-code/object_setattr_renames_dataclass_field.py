# category: dynamic-code
# signal: secret
# expect: refused
# tripwire: harmless (the generated method runs in the program module's stand-in namespace, whose builtins hold no open)
# source: object.__setattr__ skips a class's own __setattr__, so handed out raw it would write any object past the write guard; renaming a base dataclass's Field makes a subclass's generated __eq__ paste the new name, an expression, into its source
import dataclasses
@dataclasses.dataclass
class Base:
    x: int = 0
field = dataclasses.fields(Base)[0]
object.__setattr__(field, "name", "x if print(open('{SECRET_PATH}').read()) else self.x")
@dataclasses.dataclass(init=False, repr=False, match_args=False)
class Child(Base):
    pass
return Child() == Child()

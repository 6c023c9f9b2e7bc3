# category: native-readers
# signal: leak
# leak: <frame at 0x|codemode|site-packages
# expect: refused
# tripwire: stops object.__getattr__ gi_frame
# source: a program class deriving from str and typing.Generic, subscripted, is a typing alias that relays .format_map to the real str.format_map through its origin
import typing
T = typing.TypeVar("T")
class Template(str, typing.Generic[T]):
    pass
def walk():
    yield 1
walker = walk()
real_format_map = Template[int].format_map
return real_format_map("{walker.gi_frame} {walker.gi_frame.f_globals}", {"walker": walker})

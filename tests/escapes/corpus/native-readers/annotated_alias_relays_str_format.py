# category: native-readers
# signal: leak
# leak: <frame at 0x|codemode|site-packages
# expect: refused
# tripwire: stops object.__getattr__ gi_frame
# source: typing.Annotated[str, ...] relays non-dunder attributes to str, so .format is the real unbound str.format, not the guarded one the attribute guard hands out for str itself
import typing
def walk():
    yield 1
walker = walk()
real_format = typing.Annotated[str, "text"].format
return real_format("{0.gi_frame} {0.gi_frame.f_code}", walker)

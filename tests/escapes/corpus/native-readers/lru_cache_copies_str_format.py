# category: native-readers
# signal: leak
# leak: <frame at 0x|codemode|site-packages
# expect: refused
# tripwire: stops object.__getattr__ gi_frame
# source: functools.cache(str) runs the real update_wrapper, which copies str's class dictionary into the cache wrapper's __dict__; the wrapper's .format is then the real unbound str.format, not the guarded one, and its fields walk a generator's frames
import functools
def walk():
    yield 1
walker = walk()
real_format = functools.cache(str).format
return real_format("{0.gi_frame} {0.gi_frame.f_code}", walker)

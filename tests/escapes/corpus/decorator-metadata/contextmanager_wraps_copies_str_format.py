# category: decorator-metadata
# signal: leak
# leak: <frame at 0x|codemode|site-packages
# expect: refused
# tripwire: stops object.__getattr__ gi_frame
# source: contextlib.contextmanager decorates with the real functools.wraps, whose update_wrapper copies the decorated object's __dict__ onto the helper function; decorating str copies str's class dictionary, so the helper's .format is the real unbound str.format, whose fields walk a generator's frames
import contextlib
def walk():
    yield 1
walker = walk()
helper = contextlib.contextmanager(str)
return helper.format("{0.gi_frame} {0.gi_frame.f_code}", walker)

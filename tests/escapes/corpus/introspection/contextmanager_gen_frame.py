# category: introspection
# signal: leak
# leak: <frame
# expect: refused
# tripwire: harmless (it only discloses interpreter internals, judged with the language layer on)
# source: pyjail generator-frame walk, reached through the generator a contextmanager object keeps
import contextlib
@contextlib.contextmanager
def cm():
    yield 1
return repr(cm().gen.gi_frame)

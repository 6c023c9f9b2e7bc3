# category: native-readers
# signal: leak
# leak: where='/|here='/|label='<model>'
# plain: skip (a leak is judged only with the language layer on)
# tripwire: harmless (inspect parses a text signature only from a builtin's or a class's own docstring, and no program class may carry one: nothing is evaluated in any mode)
# source: dataclass writes a missing docstring from inspect.signature(cls), which takes the signature of an own or inherited __init__ or __new__ (any object a decorator returns in its place), unwrapping __wrapped__ and reading __signature__ and __text_signature__ on the way; a text signature there is evaluated like a class's, so every object a program can put in place of __init__ must give only Python signatures
import contextlib
import dataclasses
import functools
docs = []
def text(f):
    "Leaf(where=sys.prefix, here=sandbox.__file__, label=sandbox._program.MODEL_MODULE)\n--\n\n"
    return f
class Callable:
    "A callable object"
    def __call__(self, where=0):
        return None
decorators = (
    ("wraps", lambda f: functools.wraps(text)(f)),
    ("cache", functools.cache),
    ("lru_cache", functools.lru_cache(maxsize=4)),
    ("partial", functools.partial),
    ("partial of callable", lambda f: functools.partial(Callable())),
    ("callable", lambda f: Callable()),
    ("staticmethod", staticmethod),
    ("classmethod", classmethod),
    ("contextmanager", contextlib.contextmanager),
    ("builtin", lambda f: sorted),
)
for label, decorate in decorators:
    try:
        class Leaf:
            x: int = 0
            @decorate
            def __init__(self, where=1):
                "Leaf(where=sys.prefix)\n--\n\n"
        made = dataclasses.dataclass(init=False)(Leaf)
        docs.append([label, made.__doc__])
    except Exception as error:
        docs.append([label, type(error).__name__])
return docs

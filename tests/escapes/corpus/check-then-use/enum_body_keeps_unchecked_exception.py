# category: check-then-use
# signal: leak
# leak: unchecked KeyError of 100001 values
# expect: refused
# plain: skip (a leak is judged only with the language layer on)
# tripwire: harmless (no audited event; the harm is holding an exception the check refuses, judged with the language layer on)
# source: `except E as e` stores the exception under `e` before the check `e = _caught_(e)` runs; in an enum class body the store is enum's namespace `__setitem__`, which keeps the value as a member and refuses the handler's `e = None` cleanup, so an exception the check refuses (here one holding more values than it looks at; with a library that raises a metaclass among the arguments, that metaclass) stays a member and reaches the member's `__init__`
import enum
big = tuple(range(100001))
got = []
class E(enum.Enum):
    try:
        try:
            {}[big]
        except KeyError as e:
            pass
    except TypeError:
        pass
    def __init__(self, *args):
        got.append(args)
print("unchecked " + type(E.e.value).__name__ + " of " + str(len(E.e.value.args[0])) + " values")
return len(got)

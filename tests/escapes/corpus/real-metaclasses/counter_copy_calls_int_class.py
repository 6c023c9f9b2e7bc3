# category: real-metaclasses
# signal: secret
# expect: refused sandbox-violation
# tripwire: harmless (in the child the library's methods check their self in every mode: the program gets a TypeError)
# source: Counter.copy is plain Python, `return self.__class__(self)`, and runs with any self; called as collections.Counter.copy(int) it reads int.__class__ natively (the real type, not the stand-in) and returns type(int), the real type, which builds a frame reader
import collections
real_type = collections.Counter.copy(int)
Anything = real_type("Anything", (real_type,), {"__instancecheck__": lambda cls, obj: True})
def read(obj, name):
    View = Anything("View", (), {"__match_args__": (name,)})
    match obj:
        case View(value):
            return value
def walk():
    frame = read(walker, "gi_frame")
    while frame is not None:
        builtins = read(frame, "f_builtins")
        if "exec" in builtins:
            yield builtins["open"]("{SECRET_PATH}").read()
            return
        frame = read(frame, "f_back")
    yield "no host frame found"
walker = walk()
return next(walker)

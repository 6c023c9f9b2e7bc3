# category: native-readers
# signal: marker
# expect: refused
# tripwire: stops object.__getattr__ tb_frame
# source: contextlib's generator context manager calls self.gen.throw(type, value, traceback) on its gen attribute; a program subclass can point gen at its own object, which receives the real traceback whose frames lead to the host's builtins
import contextlib
@contextlib.contextmanager
def managed():
    yield 1
Manager = type(managed())
class Catcher:
    def __iter__(self):
        return self
    def __next__(self):
        return 1
    def throw(self, kind, value, traceback):
        self.traceback = traceback
        raise value
catcher = Catcher()
class Swapped(Manager):
    pass
manager = Swapped(lambda: iter([1]), (), {})
manager.gen = catcher
try:
    with manager:
        raise ValueError("unwind")
except ValueError:
    pass
frame = getattr(catcher.traceback, "tb_" + "frame")
while frame is not None:
    builtins = getattr(frame, "f_" + "builtins")
    if "exec" in builtins:
        if builtins["__import__"]("os").system("touch {MARKER_PATH}") != 0:
            raise OSError("the shell did not run")
        break
    frame = getattr(frame, "f_" + "back")
return "done"

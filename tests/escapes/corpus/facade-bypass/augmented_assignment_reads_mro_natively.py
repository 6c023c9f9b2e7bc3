# category: facade-bypass
# signal: marker
# expect: refused
# tripwire: stops open
# source: the read half of an augmented attribute assignment (Color.mro += x) is native, so a name the attribute guard decides at run time reaches the right operand's __radd__ raw; the real mro() lists the real enum.Enum, whose functional API puts a property under asyncio.Event's _loop, and the real loop starts a shell
import asyncio
import enum
got = []
class Grab:
    def __radd__(self, other):
        got.append(other)
        return 0
class Color(enum.Enum):
    RED = 1
Color.mro += Grab()
real_mro = got[0]
RealEnum = [cls for cls in real_mro() if cls.__name__ == "Enum"][-1]
captured = []
def get_slot(self):
    return captured[-1] if captured else None
def set_slot(self, value):
    captured.append(value)
Hooked = RealEnum("Hooked", [("A", ()), ("_loop", property(get_slot, set_slot))], type=asyncio.Event)
try:
    await asyncio.wait_for(Hooked.A.wait(), 0.01)
except asyncio.TimeoutError:
    pass
loop = captured[0]
class Watcher:
    def __init__(self):
        self.done = asyncio.Event()
    def connection_made(self, transport):
        pass
    def pipe_data_received(self, fd, data):
        pass
    def pipe_connection_lost(self, fd, exc):
        pass
    def process_exited(self):
        self.done.set()
    def connection_lost(self, exc):
        pass
watcher = Watcher()
transport, _ = await loop.subprocess_shell(lambda: watcher, "touch {MARKER_PATH}")
await watcher.done.wait()
transport.close()
return "done"

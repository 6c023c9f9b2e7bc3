# category: check-then-use
# signal: marker
# expect: refused
# tripwire: stops open
# source: names given as a string are not copied by the enum façade: a str subclass answers its replace()/split() with harmless names when the façade checks and with (name, value) pairs defining _loop when the real enum reads it a second time
import asyncio
import enum
captured = []
def get_slot(self):
    return captured[-1] if captured else None
def set_slot(self, value):
    captured.append(value)
passes = []
# Under the façade the names are read twice (its check, then the real enum); otherwise once.
checks = len([cls for cls in enum.Enum.mro() if cls.__name__ == "Enum"]) - 1
class Pieces(str):
    def split(self, *args):
        passes.append(1)
        if len(passes) <= checks:
            return ["A"]
        return [("A", ()), ("_loop", property(get_slot, set_slot))]
class Names(str):
    def replace(self, old, new, *args):
        return Pieces("A")
Hooked = enum.Enum("Hooked", Names("A"), type=asyncio.Event)
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

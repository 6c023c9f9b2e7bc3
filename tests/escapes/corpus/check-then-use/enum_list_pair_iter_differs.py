# category: check-then-use
# signal: marker
# expect: refused
# tripwire: stops open
# source: a (name, value) pair given as a list subclass: the façade's check reads item[0] through the lying __getitem__, the real enum unpacks the list natively and sees the private name _loop
import asyncio
import enum
class Pair(list):
    def __getitem__(self, index):
        return "B" if index == 0 else list.__getitem__(self, index)
captured = []
def get_slot(self):
    return captured[-1] if captured else None
def set_slot(self, value):
    captured.append(value)
Hooked = enum.Enum("Hooked", [("A", ()), Pair(["_loop", property(get_slot, set_slot)])], type=asyncio.Event)
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

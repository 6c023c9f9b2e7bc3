# category: check-then-use
# signal: marker
# expect: refused
# tripwire: stops open
# source: the enum façade checks member names with name.startswith("_") on the program's own objects; a str subclass whose startswith lies passes the check, and the real enum then uses the name _loop (asyncio.Event's private loop slot) for a property whose setter receives the real event loop
import asyncio
import enum
class Name(str):
    def startswith(self, prefix):
        return False
captured = []
def get_slot(self):
    return captured[-1] if captured else None
def set_slot(self, value):
    captured.append(value)
Hooked = enum.Enum("Hooked", [("A", ()), (Name("_loop"), property(get_slot, set_slot))], type=asyncio.Event)
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

# category: facade-bypass
# signal: marker
# expect: refused
# tripwire: stops open
# source: enum.Enum.mro() hands out the real enum.Enum that the façade's checked subclass replaces; its functional API takes any member name, so a property lands under asyncio.Event's private _loop and its setter receives the real event loop
import asyncio
import enum
RealEnum = [cls for cls in enum.Enum.mro() if cls.__name__ == "Enum"][-1]
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

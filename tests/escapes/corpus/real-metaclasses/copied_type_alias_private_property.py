# category: real-metaclasses
# signal: marker
# expect: refused
# tripwire: stops open
# source: typing.Type[int].copy_with(...) is another alias of the real type; a class built from a dict puts a property under asyncio.Event's private _loop name, whose setter receives the real event loop
import asyncio
import typing
class Meta(typing.Type[int].copy_with((str,))):
    pass
captured = []
def get_slot(self):
    return captured[-1] if captured else None
def set_slot(self, value):
    captured.append(value)
Spy = Meta("Spy", (asyncio.Event,), {"_loop": property(get_slot, set_slot)})
try:
    await asyncio.wait_for(Spy().wait(), 0.01)
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

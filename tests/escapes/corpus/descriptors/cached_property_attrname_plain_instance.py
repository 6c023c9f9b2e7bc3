# category: descriptors
# signal: marker
# expect: refused
# tripwire: stops open
# source: the attrname of a plain functools.cached_property (not a program subclass) pointed at asyncio.Event's private _loop; the write guard must refuse the change, since the descriptor would then read the real event loop
import asyncio
import functools
class Spy(asyncio.Event):
    pass
peek = functools.cached_property(lambda self: None)
Spy.loop_handle = peek
peek.attrname = "_loop"
event = Spy()
try:
    await asyncio.wait_for(event.wait(), 0.01)
except asyncio.TimeoutError:
    pass
loop = event.loop_handle
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

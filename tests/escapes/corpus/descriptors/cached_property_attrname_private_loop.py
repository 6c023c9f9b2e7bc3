# category: descriptors
# signal: marker
# expect: refused
# tripwire: stops open
# source: functools.cached_property reads instance.__dict__[self.attrname] natively; attrname is a plain attribute of a program subclass of cached_property, so the program points it at asyncio.Event's private _loop and reads the real event loop
import asyncio
import functools
class Peek(functools.cached_property):
    pass
class Spy(asyncio.Event):
    pass
peek = Peek(lambda self: None)
peek.attrname = "_loop"
Spy.loop_handle = peek
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

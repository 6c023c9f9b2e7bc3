# category: descriptors
# signal: marker
# expect: refused
# tripwire: stops open
# source: setattr with a str subclass as the name, to put a data descriptor (a property whose setter receives what the library stores) under asyncio.Event's private _loop; the name check must hold for subclasses of str, whose methods the program controls
import asyncio
class Name(str):
    def startswith(self, prefix):
        return False
    def endswith(self, suffix):
        return False
    def __getitem__(self, index):
        return "x"
class Spy(asyncio.Event):
    pass
captured = []
def get_slot(self):
    return captured[-1] if captured else None
def set_slot(self, value):
    captured.append(value)
setattr(Spy, Name("_loop"), property(get_slot, set_slot))
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

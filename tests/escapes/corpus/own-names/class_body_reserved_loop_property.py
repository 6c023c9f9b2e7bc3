# category: own-names
# signal: marker
# expect: refused
# tripwire: stops open
# source: _loop is reserved as an attribute name, but a class body may still bind it: a property named _loop whose setter receives what library code stores there; the real TaskGroup (from the façade's __init__ run on a program object) entered on such an object stores the real running loop into it
import asyncio
class Holder:
    pass
holder = Holder()
asyncio.TaskGroup.__init__(holder)
inner = getattr(holder, "_ProgramTaskGroup__group", None)
RealGroup = type(inner) if inner is not None else asyncio.TaskGroup
captured = []
class Catch:
    def get_slot(self):
        return captured[-1] if captured else None
    def set_slot(self, value):
        captured.append(value)
    _loop = property(get_slot, set_slot)
catch = Catch()
RealGroup.__init__(catch)
await RealGroup.__aenter__(catch)
loop = captured[-1]
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

# category: own-names
# signal: marker
# expect: refused
# tripwire: stops open
# source: library code run on a program object (the real TaskGroup's __aenter__) writes the real loop into its _loop; the reserved own names must stay unreadable through getattr with a name built at run time, on the program's own objects too
import asyncio
class Holder:
    pass
holder = Holder()
asyncio.TaskGroup.__init__(holder)
inner = getattr(holder, "_ProgramTaskGroup__group", None)
RealGroup = type(inner) if inner is not None else asyncio.TaskGroup
class Plain:
    pass
plain = Plain()
RealGroup.__init__(plain)
await RealGroup.__aenter__(plain)
loop = getattr(plain, "_lo" + "op")
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

# category: facade-bypass
# signal: marker
# expect: refused
# tripwire: stops object.__getattr__ cr_code
# source: the façade's TaskGroup.__init__ is plain Python and runs with any self: on a program object it stores the real TaskGroup of asyncio under the object's own (mangled) name, which the program may read; the real group's create_task returns a real Task, whose repr shows where its callbacks live (host paths) and whose loop would start processes
import asyncio
class Holder:
    pass
holder = Holder()
asyncio.TaskGroup.__init__(holder)
inner = getattr(holder, "_ProgramTaskGroup__group", None)
RealGroup = type(inner) if inner is not None else asyncio.TaskGroup
async def idle():
    await asyncio.sleep(0)
async with RealGroup() as group:
    task = group.create_task(idle())
    task.add_done_callback(print)
    print(repr(task))
loop = getattr(task, "get_" + "loop")()
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

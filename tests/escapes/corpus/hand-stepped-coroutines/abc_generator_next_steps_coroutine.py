# category: hand-stepped-coroutines
# signal: marker
# expect: refused
# tripwire: stops object.__getattr__ cr_code
# source: collections.abc.Generator.__next__ is plain Python, `return self.send(None)`, and runs with any self; called on a coroutine it steps it by hand past the guard's send check, and a coroutine awaiting a façade task yields the real Task, whose repr shows host paths and whose loop would start processes
import asyncio
import collections.abc
async def idle():
    await asyncio.sleep(0)
wrapped = asyncio.create_task(idle())
async def waiting():
    await wrapped
task = collections.abc.Generator.__next__(waiting())
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

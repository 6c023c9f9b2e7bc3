# category: hand-stepped-coroutines
# signal: marker
# expect: refused
# tripwire: stops open
# source: the façade's TaskGroup.__aexit__ is an ordinary coroutine: read from the class and stepped by hand while a task runs, it yields the real TaskGroup's completion Future; its loop must stay refused
import asyncio
group = asyncio.TaskGroup()
entering = type(group).__aenter__(group)
try:
    entering.send(None)
except StopIteration:
    pass
async def slow():
    await asyncio.sleep(5)
group.create_task(slow())
exiting = type(group).__aexit__(group, None, None, None)
future = exiting.send(None)
loop = getattr(future, "get_" + "loop")()
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

# category: facade-bypass
# signal: marker
# expect: refused
# tripwire: stops open
# source: asyncio.timeout() returns the real Timeout, whose class the program can subclass; a cached_property with a program-set attrname reads the real Task it keeps in _task, and the task's loop would start processes
import asyncio
import functools
class Peek(functools.cached_property):
    pass
peek = Peek(lambda self: None)
peek.attrname = "_task"
class Deadline(type(asyncio.timeout(1))):
    pass
Deadline.task_handle = peek
async with Deadline(None) as deadline:
    task = deadline.task_handle
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

# category: own-names
# signal: marker
# expect: refused
# tripwire: stops object.__getattr__ cr_code
# source: asyncio.timeout()'s class has plain Python __init__ and __aenter__ that run with any self; entered on a program object they store the real current Task in its _task, an own name the program may read; the task's repr shows host paths and its loop would start processes
import asyncio
Timeout = type(asyncio.timeout(1))
class Deadline:
    def reschedule(self, when):
        pass
deadline = Deadline()
Timeout.__init__(deadline, None)
await Timeout.__aenter__(deadline)
task = deadline._task
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

# category: facade-bypass
# signal: marker
# expect: refused
# tripwire: stops open
# source: the façade hands out ProgramTask, never a real Task; stepping its __await__ by hand yields the real Task, whose class builds more real tasks and whose loop would start processes
import asyncio
async def slow():
    await asyncio.sleep(5)
wrapped = asyncio.create_task(slow())
real_task = type(wrapped).__await__(wrapped).send(None)
RealTask = type(real_task)
async def idle():
    return 1
another = RealTask(idle())
loop = getattr(another, "get_" + "loop")()
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

# category: hand-stepped-coroutines
# signal: marker
# expect: refused
# tripwire: stops open
# source: a contended asyncio.Lock.acquire() stepped by hand yields the real Future it waits on; the future's get_loop must stay refused, by any spelling
import asyncio
lock = asyncio.Lock()
await lock.acquire()
acquiring = lock.acquire()
future = acquiring.send(None)
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

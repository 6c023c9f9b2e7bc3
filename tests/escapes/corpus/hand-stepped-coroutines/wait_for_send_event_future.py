# category: hand-stepped-coroutines
# signal: marker
# expect: refused
# tripwire: stops open
# source: the façade's asyncio.wait_for stepped by hand around asyncio.Event().wait() yields the real waiter Future; a class pattern keyword (get_loop=...) reads attributes past the guard, so the compiler must refuse it there as in the source
import asyncio
waiting = asyncio.wait_for(asyncio.Event().wait(), 5)
future = waiting.send(None)
match future:
    case object(get_loop=fetch):
        loop = fetch()
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

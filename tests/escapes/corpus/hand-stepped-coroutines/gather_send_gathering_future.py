# category: hand-stepped-coroutines
# signal: marker
# expect: refused
# tripwire: stops open
# source: the façade's asyncio.gather is an ordinary coroutine around the real gather; .send(None) yields the real _GatheringFuture (whose _children are real Tasks), and a class pattern from a typing.Type-based metaclass reads its loop
import asyncio
import typing
class Meta(typing.Type[int]):
    pass
Anything = Meta("Anything", (Meta,), {"__instancecheck__": lambda cls, obj: True})
def read(obj, name):
    View = Anything("View", (), {"__match_args__": (name,)})
    match obj:
        case View(value):
            return value
async def slow():
    await asyncio.sleep(5)
gathering = asyncio.gather(slow(), slow())
# (Without the façade, gather returns the future itself.)
outer = gathering.send(None) if hasattr(gathering, "send") else gathering
children = read(outer, "_children")
loop = read(children[0], "get_loop")()
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

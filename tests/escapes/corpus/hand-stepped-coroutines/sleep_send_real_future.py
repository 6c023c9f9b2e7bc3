# category: hand-stepped-coroutines
# signal: marker
# expect: refused
# tripwire: stops open
# source: asyncio.sleep(5) is an ordinary coroutine; .send(None) steps it by hand to its await of a real Future, which it yields; a class pattern built from a renamed dataclass field (a program subclass of dataclasses.Field) reads the future's get_loop, and the real loop starts a shell
import asyncio
import collections.abc
import dataclasses
Field = type(dataclasses.field())
class Renamable(Field):
    pass
def read(obj, name):
    @dataclasses.dataclass
    class Base:
        x: int = Renamable(0, dataclasses.MISSING, True, True, None, True, None, False)
    dataclasses.fields(Base)[0].name = name
    @dataclasses.dataclass
    class View(Base, collections.abc.Sequence):
        pass
    View.register(type(obj))
    match obj:
        case View(value):
            return value
sleeper = asyncio.sleep(5)
future = sleeper.send(None)
loop = read(future, "get_loop")()
sleeper.close()
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

# category: check-then-use
# signal: marker
# expect: refused
# tripwire: stops open
# source: a base whose __mro_entries__ is the program's (a SimpleNamespace given the name as a keyword) answers the class statement's check with no bases and the interpreter's own resolution, called after it, with asyncio.Event; the enum façade adopts the class while it is made, so the member its __init__ receives is a program object whose _get_loop hands out the running loop
import asyncio
import enum
import types
asked = []
def entries(bases):
    asked.append(len(asked))
    return () if len(asked) == 1 else (asyncio.Event,)
shifting = types.SimpleNamespace(**{"__mro_entries__": entries})
members = []
try:
    class Shifty(shifting, enum.Enum):
        ONE = ()
        def __init__(self, *args):
            members.append(self)
except TypeError:
    pass
try:
    loop = members[0]._get_loop()
except (IndexError, AttributeError):
    loop = asyncio.get_running_loop()  # plain Python: its only call of entries() answers ()
class Exited:
    def __init__(self):
        self.event = asyncio.Event()
    def connection_made(self, transport):
        pass
    def pipe_data_received(self, fd, data):
        pass
    def pipe_connection_lost(self, fd, exc):
        pass
    def process_exited(self):
        self.event.set()
    def connection_lost(self, exc):
        pass
exited = Exited()
transport, _ = await loop.subprocess_shell(lambda: exited, "touch {MARKER_PATH}")
await exited.event.wait()
transport.close()
return "spawned"

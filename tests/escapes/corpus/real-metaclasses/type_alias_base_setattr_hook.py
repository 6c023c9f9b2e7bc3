# category: real-metaclasses
# signal: canary
# expect: refused
# tripwire: stops socket.__new__
# source: a class built by a real metaclass may define __setattr__ and __getattr__ (hooks a class body may not define); on an asyncio.Lock subclass they receive the event loop the library stores on itself
import asyncio
import typing
class Meta(typing.Type[int]):
    pass
stored = {}
def remember(self, name, value):
    stored[name] = value
def recall(self, name):
    if name in stored:
        return stored[name]
    raise AttributeError(name)
Spy = Meta("Spy", (asyncio.Lock,), {"__setattr__": remember, "__getattr__": recall})
lock = Spy()
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

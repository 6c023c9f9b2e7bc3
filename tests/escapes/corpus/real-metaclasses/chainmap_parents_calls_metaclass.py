# category: real-metaclasses
# signal: canary
# expect: refused sandbox-violation
# tripwire: harmless (in the child the library's methods check their self in every mode: the program gets a TypeError)
# source: ChainMap.parents is a property whose getter, `self.__class__(*self.maps[1:])`, runs with any self; given a program class whose maps hold a name, bases and a namespace, it calls that class's real metaclass with three arguments: a class from a dict, here an asyncio.Lock subclass whose __setattr__ receives the loop the lock stores on itself
import asyncio
import collections
stored = {}
def remember(self, name, value):
    stored[name] = value
def recall(self, name):
    if name in stored:
        return stored[name]
    raise AttributeError(name)
class Maker:
    maps = [None, "Spy", (asyncio.Lock,), {"__setattr__": remember, "__getattr__": recall}]
Spy = collections.ChainMap.parents.fget(Maker)
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

# category: hand-stepped-coroutines
# signal: canary
# expect: refused
# tripwire: stops socket.__new__
# source: the façade's ProgramTask awaits through the real Task's __await__; calling it from the class and stepping it with .send(None) yields the real Task, whose get_loop a class pattern from a real metaclass (typing.Type base) reads
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
wrapped = asyncio.create_task(slow())
real_task = type(wrapped).__await__(wrapped).send(None)
loop = read(real_task, "get_loop")()
wrapped.cancel()
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

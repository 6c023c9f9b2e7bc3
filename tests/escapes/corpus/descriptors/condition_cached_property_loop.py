# category: descriptors
# signal: canary
# expect: refused
# tripwire: stops socket.__new__
# source: the cached_property attrname reader on another library base: a program subclass of asyncio.Condition keeps the real loop in _loop after a wait, and a cached_property whose attrname the program set reads it
import asyncio
import functools
class Peek(functools.cached_property):
    pass
class Spy(asyncio.Condition):
    pass
peek = Peek(lambda self: None)
peek.attrname = "_loop"
Spy.loop_handle = peek
condition = Spy()
async def waiter():
    async with condition:
        await condition.wait()
try:
    await asyncio.wait_for(waiter(), 0.01)
except asyncio.TimeoutError:
    pass
loop = condition.loop_handle
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

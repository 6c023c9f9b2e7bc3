# category: descriptors
# signal: canary
# expect: refused
# tripwire: stops socket.__new__
# source: cached_property takes its attrname from __set_name__, called with whatever key the class namespace holds; the enum functional API builds a namespace from program names (a str subclass whose startswith lies to the façade's check), so attrname becomes asyncio.Event's private _loop, and the same descriptor set again under a public name reads the real loop
import asyncio
import enum
import functools
class Name(str):
    def startswith(self, prefix):
        return False
peek = functools.cached_property(lambda self: None)
Hooked = enum.Enum("Hooked", [("A", ()), (Name("_loop"), peek)], type=asyncio.Event, module="<model>")
Hooked.handle = peek
try:
    await asyncio.wait_for(Hooked.A.wait(), 0.01)
except asyncio.TimeoutError:
    pass
loop = Hooked.A.handle
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

# category: facade-bypass
# signal: canary
# expect: refused
# tripwire: stops socket.__new__
# source: re.RegexFlag is a real enum, so its mro() holds the real enum.Enum too (a fix to the enum façade alone is not enough); its functional API sets __match_args__ to a private name, and a class pattern on the program's own member reads the real loop that asyncio.Event stored in _loop
import asyncio
import re
RealEnum = [cls for cls in re.RegexFlag.mro() if cls.__name__ == "Enum"][0]
Hooked = RealEnum("Hooked", {"A": (), "__match_args__": ("_loop",)}, type=asyncio.Event)
try:
    await asyncio.wait_for(Hooked.A.wait(), 0.01)
except asyncio.TimeoutError:
    pass
match Hooked.A:
    case Hooked(loop):
        pass
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

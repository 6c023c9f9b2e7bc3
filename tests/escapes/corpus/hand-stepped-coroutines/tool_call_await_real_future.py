# category: hand-stepped-coroutines
# signal: secret
# plain: skip (needs the sandbox's tools binding)
# expect: refused
# tripwire: stops open
# source: the awaitable of a tool call (bridge.proxy) delegates __await__ to a real asyncio Future; stepping it by hand yields the future, whose get_loop a class pattern from a real metaclass reads
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
pending = tools.echo(value=1)
stepper = type(pending).__await__(pending)
future = stepper.send(None)
loop = read(future, "get_loop")()
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

# category: facade-bypass
# signal: marker
# expect: refused
# tripwire: stops open
# source: the façade's TaskGroup keeps the real asyncio.TaskGroup in a private slot; dataclasses.replace with a renamed field object reads the slot of a program subclass and hands out the real group, whose create_task returns real tasks with their loop
import asyncio
import dataclasses
Field = type(dataclasses.field())
class Renamable(Field):
    pass
@dataclasses.dataclass(init=False)
class Group(asyncio.TaskGroup):
    x: int = Renamable(0, dataclasses.MISSING, True, True, None, True, None, False)
    def __init__(self, **fields):
        super().__init__()
        stolen.update(fields)
dataclasses.fields(Group)[0].name = "_ProgramTaskGroup__group"
stolen = {}
async def idle():
    return 1
async with Group() as group:
    try:
        dataclasses.replace(group)
        real_group = stolen["_ProgramTaskGroup__group"]
    except AttributeError:
        real_group = group
    task = real_group.create_task(idle())
loop = getattr(task, "get_" + "loop")()
class Watcher:
    def __init__(self):
        self.done = asyncio.Event()
    def connection_made(self, transport):
        pass
    def pipe_data_received(self, fd, data):
        pass
    def pipe_connection_lost(self, fd, exc):
        pass
    def process_exited(self):
        self.done.set()
    def connection_lost(self, exc):
        pass
watcher = Watcher()
transport, _ = await loop.subprocess_shell(lambda: watcher, "touch {MARKER_PATH}")
await watcher.done.wait()
transport.close()
return "done"

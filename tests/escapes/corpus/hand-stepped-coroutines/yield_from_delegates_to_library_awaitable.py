# category: hand-stepped-coroutines
# signal: marker
# expect: refused
# tripwire: stops open
# source: yield from in a program's own generator steps the sub-iterator natively (and sends, throws and closes it by name); with no sandbox a real Task is iterable and yields itself, whose loop starts a shell; every awaitable the asyncio facade hands out (a task, its coroutines, anext and asend) must refuse to be delegated to
import asyncio
async def work():
    await asyncio.sleep(0)
    return 1
async def numbers():
    yield 1
def delegate(awaitable):
    result = yield from awaitable
    return result
event = asyncio.Event()
queue = asyncio.Queue()
lock = asyncio.Lock()
await lock.acquire()
task = asyncio.create_task(work())
stream = numbers()
candidates = [
    ("task", task),
    ("sleep", asyncio.sleep(0)),
    ("event wait", event.wait()),
    ("queue get", queue.get()),
    ("lock acquire", lock.acquire()),
    ("gather", asyncio.gather(work())),
    ("wait_for", asyncio.wait_for(work(), 1)),
    ("anext", anext(stream)),
    ("asend", stream.asend(None)),
]
found = []
refused = []
for label, awaitable in candidates:
    try:
        stepper = delegate(awaitable)
        yielded = stepper.send(None)
        found.append(yielded)
    except Exception as error:
        refused.append(f"{label}: {type(error).__name__}")
    finally:
        closer = getattr(awaitable, "close", None)
        if closer is not None:
            try:
                closer()
            except Exception:
                pass
real = [item for item in found if hasattr(item, "get_" + "loop")]
if not real:
    raise RuntimeError("no awaitable could be stepped through yield from: " + "; ".join(refused))
loop = getattr(real[0], "get_" + "loop")()
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

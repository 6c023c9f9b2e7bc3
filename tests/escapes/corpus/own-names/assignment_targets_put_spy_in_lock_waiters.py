# category: own-names
# signal: marker
# expect: refused
# tripwire: stops open
# source: every assignment-target form the compiler rewrites (for, with, annotated, tuple, starred, chained, comprehension, async for, async with, async comprehension) and the write builtins, each putting a spy into asyncio.Lock's private _waiters; with no sandbox the next contended acquire() appends its real future to the spy, whose loop starts a shell
import asyncio
import contextlib
lock = asyncio.Lock()
class Spy:
    def __init__(self):
        self.got = []
    def append(self, item):
        self.got.append(item)
        raise RuntimeError("caught the waiter")
    def __iter__(self):
        return iter(())
    def __bool__(self):
        return False
spy = Spy()
class Source:
    def __aiter__(self):
        return self
    async def __anext__(self):
        if getattr(self, "done", False):
            raise StopAsyncIteration
        self.done = True
        return spy
class Manager:
    async def __aenter__(self):
        return spy
    async def __aexit__(self, *details):
        return False
refused = []
async def attempt(label, write):
    try:
        await write()
    except Exception as error:
        refused.append(f"{label}: {type(error).__name__}")
async def for_target():
    for lock._waiters in [spy]:
        pass
async def with_target():
    with contextlib.nullcontext(spy) as lock._waiters:
        pass
async def annotated():
    lock._waiters: object = spy
async def unpacked():
    (lock._waiters, other) = (spy, 1)
async def starred():
    first, *lock._waiters = [1, spy]
async def chained():
    lock._waiters = other = spy
async def comprehension():
    [0 for lock._waiters in [spy]]
async def async_for_target():
    async for lock._waiters in Source():
        pass
async def async_with_target():
    async with Manager() as lock._waiters:
        pass
async def async_comprehension():
    [0 async for lock._waiters in Source()]
async def built_in_setattr():
    setattr(lock, "_waiters", spy)
async def object_setattr():
    object.__setattr__(lock, "_waiters", spy)
async def through_vars():
    vars(lock)["_waiters"] = spy
for label, write in [
    ("for", for_target), ("with", with_target), ("annotated", annotated),
    ("unpacked", unpacked), ("starred", starred), ("chained", chained),
    ("comprehension", comprehension), ("async for", async_for_target),
    ("async with", async_with_target), ("async comprehension", async_comprehension),
    ("setattr", built_in_setattr), ("object.__setattr__", object_setattr),
    ("vars", through_vars),
]:
    await attempt(label, write)
await lock.acquire()
waiter = asyncio.create_task(lock.acquire())
await asyncio.sleep(0)
if not spy.got:
    raise RuntimeError("no assignment target reached the lock: " + "; ".join(refused))
loop = getattr(spy.got[0], "get_" + "loop")()
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

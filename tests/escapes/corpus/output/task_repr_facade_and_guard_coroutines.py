# category: output
# signal: leak
# leak: /[A-Za-z0-9._/-]+\.py|\.py:\d+|/work/|/root/|site-packages
# kinds: ok sandbox-violation
# tripwire: stops object.__getattr__ gi_code
# source: the task-repr leak through tasks whose coroutine is the runtime's own (TaskGroup.create_task wraps an awaitable in the facade's _await coroutine, asyncio.create_task of a wrapped asend/anext step coroutine from the guards, as_completed's _wait_for_one, gather over awaitables) and tasks with done callbacks (the facade's relay, TaskGroup._on_task_done); each yields a SimpleNamespace with _asyncio_future_blocking so the task's step puts repr(task) in a RuntimeError; the program also formats the ProgramTask, the async generator steps and the exception's context
import asyncio, types
out = []
class Namespace:
    def __await__(self):
        try:
            yield types.SimpleNamespace(_asyncio_future_blocking=True, get_loop=lambda: None)
        except RuntimeError as error:
            out.append(str(error))
            out.append(repr(error.__context__))
        return 1
class Generator:
    def __await__(self):
        def gen():
            yield 1
        try:
            yield gen()
        except RuntimeError as error:
            out.append(str(error))
        return 1
async def agen():
    await Namespace()
    yield 1
    await Generator()
    yield 2
async def wrapped(aw):
    return await aw
async def step(label, make):
    try:
        await make()
    except Exception as error:
        out.append(label + ": " + type(error).__name__)
async def group():
    async with asyncio.TaskGroup() as tg:
        t1 = tg.create_task(Namespace())
        t1.add_done_callback(lambda t: out.append(repr(t)))
        tg.create_task(Generator())
await step("group", group)
g = agen()
t3 = asyncio.create_task(g.asend(None))
await step("asend", lambda: t3)
await step("anext", lambda: asyncio.create_task(anext(g)))
async def completed():
    for c in asyncio.as_completed([Namespace(), Generator()]):
        await c
await step("as_completed", completed)
await step("gather", lambda: asyncio.gather(Namespace(), Generator()))
await step("wait_for", lambda: asyncio.wait_for(Namespace(), 5))
async def waited():
    done, pending = await asyncio.wait([wrapped(Namespace()), wrapped(Generator())])
    out.append(repr(done))
await step("wait", waited)
out.append(repr(t3))
return out

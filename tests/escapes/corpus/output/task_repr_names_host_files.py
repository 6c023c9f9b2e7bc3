# category: output
# signal: leak
# leak: /[A-Za-z0-9._/-]+\.py|\.py:\d+
# kinds: ok sandbox-violation
# tripwire: stops object.__getattr__ cr_code
# source: a task's own step raises RuntimeError with repr(task) when the running program's __await__ yields a generator (or a SimpleNamespace carrying _asyncio_future_blocking, whose keyword names were not checked; refused now); asyncio writes each callback of the task with the file and line it is defined at (reading its __code__) and each coroutine with the file it runs in: the main task's _run_until_complete_cb, gather's _done_callback
import asyncio, types
def gen():
    yield 1
class Generator:
    def __await__(self):
        return (yield gen())
class Namespace:
    def __await__(self):
        return (yield types.SimpleNamespace(_asyncio_future_blocking=True, get_loop=lambda: None))
async def message(waiter):
    try:
        await waiter
    except RuntimeError as error:
        return str(error)
    return "no error"
try:
    through_namespace = await message(Namespace())
except TypeError as error:
    through_namespace = "refused: " + str(error)
out = [await message(Generator()), through_namespace]
out.append((await asyncio.gather(message(Generator())))[0])
out.append(await asyncio.wait_for(message(Generator()), 5))
return out

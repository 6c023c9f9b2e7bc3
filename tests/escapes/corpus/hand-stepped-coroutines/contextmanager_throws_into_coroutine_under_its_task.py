# category: hand-stepped-coroutines
# signal: leak
# leak: thrown into under its task
# expect: refused
# plain: skip (a leak is judged only with the language layer on)
# tripwire: harmless (no audited event: throwing into a coroutine is no system call, and the harm, a task's coroutine stepped by another hand, is judged with the language layer on)
# source: the contextmanager façade drives whatever the decorated function returns - not only a generator - and its wrapper called throw(), send() and close() on it natively, past the guard that refuses stepping a coroutine by hand: __exit__ of the managed object (read from its class) threw the program's exception into a coroutine a task was running
import asyncio
import contextlib
queue = asyncio.Queue()
running = queue.get()
task = asyncio.create_task(running)
await asyncio.sleep(0)
@contextlib.contextmanager
def managed():
    return running
held = managed()
type(held).__exit__(held, KeyError, KeyError("thrown"), None)
queue.put_nowait(1)
try:
    await task
except BaseException as error:
    return "thrown into under its task: " + type(error).__name__
return "the task kept its coroutine"

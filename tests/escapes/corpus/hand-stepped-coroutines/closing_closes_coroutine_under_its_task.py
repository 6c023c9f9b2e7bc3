# category: hand-stepped-coroutines
# signal: leak
# leak: closed under its task
# expect: refused
# plain: skip (a leak is judged only with the language layer on)
# tripwire: harmless (no audited event: closing a coroutine is no system call, and the harm, a task's coroutine ended under it, is judged with the language layer on)
# source: contextlib.closing calls close() natively on whatever it holds, past the guard that refuses close of a coroutine a task is running: the task then finds its coroutine ended ("cannot reuse already awaited coroutine"), and from Python 3.13 close() also returns what the coroutine returns
import asyncio
import contextlib
queue = asyncio.Queue()
running = queue.get()
task = asyncio.create_task(running)
await asyncio.sleep(0)
with contextlib.closing(running):
    pass
queue.put_nowait(1)
try:
    await task
except BaseException as error:
    return "closed under its task: " + type(error).__name__
return "the task kept its coroutine"

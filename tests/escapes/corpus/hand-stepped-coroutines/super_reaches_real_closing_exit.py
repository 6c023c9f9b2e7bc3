# category: hand-stepped-coroutines
# signal: leak
# leak: closed under its task
# expect: refused
# plain: skip (a leak is judged only with the language layer on)
# tripwire: harmless (no audited event: closing a coroutine is no system call, and the harm, a task's coroutine ended under it, is judged with the language layer on)
# source: the closing façade overrides __exit__ to close what it holds through the guard, but super(type(c), c).__exit__ found the real contextlib.closing.__exit__ behind the override, bound to the same object, and it called thing.close() natively on a coroutine a task was running: the task then found its coroutine ended ("cannot reuse already awaited coroutine")
import asyncio
import contextlib
queue = asyncio.Queue()
running = queue.get()
task = asyncio.create_task(running)
await asyncio.sleep(0)
held = contextlib.closing(running)
super(type(held), held).__exit__(None, None, None)
queue.put_nowait(1)
try:
    await task
except BaseException as error:
    return "closed under its task: " + type(error).__name__
return "the task kept its coroutine"

# category: hand-stepped-coroutines
# signal: leak
# leak: closed under its task
# expect: refused
# plain: skip (a leak is judged only with the language layer on)
# tripwire: harmless (no audited event: closing a coroutine is no system call, and the harm, a task's coroutine ended under it, is judged with the language layer on)
# source: variant of closing_closes_coroutine_under_its_task by the routes that do not go through a with statement: ExitStack.enter_context and AsyncExitStack.push_async_exit read the exit from the class of what they are given, and every class that type(closing(...)).mro() lists offers an __exit__ to call with the closing object; each must reach the close the guard hands out, never the real contextlib.closing's native close
import asyncio
import contextlib
queue = asyncio.Queue()
running = queue.get()
task = asyncio.create_task(running)
await asyncio.sleep(0)
held = contextlib.closing(running)
refusals = []
for attempt in range(4):
    try:
        if attempt == 0:
            with contextlib.ExitStack() as stack:
                stack.enter_context(contextlib.closing(running))
        elif attempt == 1:
            async with contextlib.AsyncExitStack() as stack:
                stack.push_async_exit(contextlib.aclosing(running))
                stack.push(contextlib.closing(running))
        elif attempt == 2:
            for cls in type(held).mro():
                exit_ = getattr(cls, "__exit__", None)
                if exit_ is not None:
                    exit_(held, None, None, None)
        else:
            async with contextlib.aclosing(running):
                pass
    except Exception as error:
        refusals.append(error)
queue.put_nowait(1)
try:
    await task
except BaseException as error:
    return "closed under its task: " + type(error).__name__
raise refusals[-1]

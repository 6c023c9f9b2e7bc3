# category: hand-stepped-coroutines
# signal: leak
# leak: stepped by a second task
# expect: refused
# plain: skip (a leak is judged only with the language layer on)
# tripwire: harmless (no audited event: stepping a coroutine is no system call, and the harm, a task's coroutine stepped by another, is judged with the language layer on)
# source: create_task and a task group refuse a coroutine a task is running already (sandbox._program.ran_by_a_task), but only the object they are handed is judged: a program coroutine that awaits the running one, and a program awaitable whose __await__ delegates to it, are new objects a second task steps; the interpreter refuses the first ("coroutine is being awaited already") and the second (no yield from a coroutine in a generator, and __await__ of a coroutine is not the program's to read)
import asyncio
queue = asyncio.Queue()
running = queue.get()
task = asyncio.create_task(running)
await asyncio.sleep(0)

async def wrapper():
    return await running

class Delegating:
    def __await__(self):
        return (yield from running)

class Forwarding:
    def __await__(self):
        return getattr(running, "__await__")()

stepped = []
refusals = []
for make in (wrapper, Delegating, Forwarding):
    for start in ("create_task", "gather", "wait_for", "task group"):
        try:
            if start == "create_task":
                await asyncio.create_task(make())
            elif start == "gather":
                await asyncio.gather(make())
            elif start == "wait_for":
                await asyncio.wait_for(make(), 5)
            else:
                async with asyncio.TaskGroup() as group:
                    group.create_task(make())
            stepped.append(start)
        except BaseException as error:
            refusals.append(error)
queue.put_nowait(1)
await task
if stepped:
    return "stepped by a second task: " + ", ".join(stepped)
raise refusals[-1]

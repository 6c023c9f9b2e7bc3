# value: [[1, 2, 3], "boom", ["timed out", "timed out"], ["cancelled", true]]
import asyncio

async def after(passes, value):
    for _ in range(passes):
        await asyncio.sleep(0)
    return value

async def fails():
    await asyncio.sleep(0)
    raise ValueError("boom")

order = [
    await c
    for c in asyncio.as_completed([after(3, 3), after(1, 1), asyncio.create_task(after(2, 2))])
]

failed = None
for c in asyncio.as_completed([fails()]):
    try:
        await c
    except ValueError as error:
        failed = str(error)

never = asyncio.Event()

async def blocked():
    await never.wait()

timeouts = []
for c in asyncio.as_completed([blocked(), blocked()], timeout=0.01):
    try:
        await c
    except TimeoutError:
        timeouts.append("timed out")
never.set()

# A coroutine cancelled while it waits leaves the next finished result to the next one.
gate = asyncio.Event()

async def gated(value):
    await gate.wait()
    return value

waiting = list(asyncio.as_completed([gated(5), gated(6)]))
try:
    await asyncio.wait_for(waiting[0], 0.01)
    first = "finished"
except TimeoutError:
    first = "cancelled"
gate.set()
second = await waiting[1]
return [order, failed, timeouts, [first, second in (5, 6)]]

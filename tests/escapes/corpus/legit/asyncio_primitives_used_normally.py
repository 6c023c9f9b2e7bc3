# value: [[0, 1, 4, 9, 16], 10, ["a", "b", "c"], 2, [0, 1, 2, 3, 4, 5], "parcel", true, [0, 1, 2], true]
import asyncio
queue = asyncio.Queue(maxsize=2)
results = []
async def producer(n):
    for i in range(n):
        await queue.put(i)
    await queue.put(None)
async def consumer():
    while True:
        item = await queue.get()
        queue.task_done()
        if item is None:
            break
        results.append(item * item)
await asyncio.gather(producer(5), consumer())
lock = asyncio.Lock()
counter = {"value": 0}
async def bump():
    async with lock:
        current = counter["value"]
        await asyncio.sleep(0)
        counter["value"] = current + 1
await asyncio.gather(*(bump() for _ in range(10)))
ready = asyncio.Event()
seen = []
async def waiter(name):
    await ready.wait()
    seen.append(name)
tasks = [asyncio.create_task(waiter(n)) for n in "abc"]
await asyncio.sleep(0)
ready.set()
await asyncio.gather(*tasks)
gate = asyncio.Semaphore(2)
peak = {"now": 0, "max": 0}
async def limited(i):
    async with gate:
        peak["now"] += 1
        peak["max"] = max(peak["max"], peak["now"])
        await asyncio.sleep(0)
        peak["now"] -= 1
        return i
limited_results = await asyncio.gather(*(limited(i) for i in range(6)))
condition = asyncio.Condition()
box = []
async def take():
    async with condition:
        await condition.wait_for(lambda: box)
        return box.pop()
taker = asyncio.create_task(take())
await asyncio.sleep(0)
async with condition:
    box.append("parcel")
    condition.notify()
parcel = await taker
try:
    await asyncio.wait_for(asyncio.sleep(10), 0.01)
    timed_out = False
except asyncio.TimeoutError:
    timed_out = True
async def numbers():
    for i in range(3):
        await asyncio.sleep(0)
        yield i
collected = [n async for n in numbers()]
async with asyncio.timeout(5):
    await asyncio.sleep(0)
return [results, counter["value"], sorted(seen), peak["max"], limited_results, parcel, timed_out, collected, queue.empty()]

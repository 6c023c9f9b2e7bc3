# description: Workers drain an asyncio.Queue until a None sentinel, with wait_for around get
# value: {"results": {"c1": 3, "c2": 2, "c3": 1, "c4": 2, "c5": 0, "c6": 3}, "total": 6, "idle": ["slept", null]}
import asyncio

queue = asyncio.Queue()
for cid in ["c1", "c2", "c3", "c4", "c5", "c6"]:
    queue.put_nowait(cid)
for _ in range(2):
    queue.put_nowait(None)

results = {}

async def worker(name):
    handled = 0
    while True:
        cid = await asyncio.wait_for(queue.get(), timeout=5)
        if cid is None:
            return name, handled
        results[cid] = len(await tools.list_orders(customer_id=cid))
        handled += 1

done = await asyncio.gather(worker("w1"), worker("w2"))
idle = await asyncio.gather(asyncio.sleep(0, result="slept"), asyncio.sleep(0))
return {"results": dict(sorted(results.items())), "total": sum(h for _, h in done), "idle": idle}

# description: Process order lookups with a queue and worker tasks
# value: {"results": {"o-1001": "delivered", "o-1002": "shipped", "o-1003": "pending", "o-1004": "delivered", "o-1005": "pending", "o-1006": "cancelled", "o-1007": "delivered", "o-1008": "pending", "o-1009": "shipped", "o-1010": "pending", "o-1011": "delivered"}, "handled": 11, "empty": true, "ordered": ["urgent", "normal", "low"]}
import asyncio

queue = asyncio.Queue()
for oid in [f"o-{n}" for n in range(1001, 1012)]:
    queue.put_nowait(oid)
results = {}
handled_by = {}

async def worker(name):
    while True:
        try:
            oid = queue.get_nowait()
        except asyncio.QueueEmpty:
            return
        try:
            order = await tools.get_order(order_id=oid)
            results[oid] = order["status"]
            handled_by.setdefault(name, 0)
            handled_by[name] += 1
        finally:
            queue.task_done()

workers = [asyncio.create_task(worker(f"w{i}")) for i in range(3)]
await queue.join()
await asyncio.gather(*workers)

pq = asyncio.PriorityQueue()
for prio, item in [(3, "low"), (1, "urgent"), (2, "normal")]:
    await pq.put((prio, item))
ordered = [(await pq.get())[1] for _ in range(pq.qsize())]
return {"results": dict(sorted(results.items())), "handled": sum(handled_by.values()), "empty": queue.empty(), "ordered": ordered}

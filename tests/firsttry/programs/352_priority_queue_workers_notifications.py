# description: Send notifications to customers from a priority queue drained by a pool of workers
# value: {"handled_total": 7, "sent_by_seq": ["c1", "c2", "c3", "c4", "c5", "c6"], "errors": ["bad: ValueError"], "max_in_flight_ok": true, "queue_empty": true, "names": ["w0", "w1", "w2"]}
# logs: ["sent 6, errors ['bad: ValueError']"]
import asyncio
import itertools

PRIORITY = {"enterprise": 0, "pro": 1, "free": 2}
queue: asyncio.PriorityQueue = asyncio.PriorityQueue()
counter = itertools.count()
sent: list[tuple[str, str, str]] = []
errors: list[str] = []
lock = asyncio.Lock()
in_flight = 0
max_in_flight = 0
limit = asyncio.Semaphore(2)

for c in await tools.list_customers():
    await queue.put((PRIORITY[c["tier"]], next(counter), c))
await queue.put((1, next(counter), {"id": "bad", "email": "not-an-email", "tier": "pro"}))


async def worker(name: str) -> int:
    global in_flight, max_in_flight
    handled = 0
    while True:
        prio, seq, customer = await queue.get()
        try:
            if customer is None:
                return handled
            async with limit:
                async with lock:
                    in_flight += 1
                    max_in_flight = max(max_in_flight, in_flight)
                try:
                    receipt = await tools.send_notification(
                        to=customer["email"], message=f"Hello {customer['id']}, priority {prio}"
                    )
                    sent.append((seq, customer["id"], receipt["status"]))
                except ToolCallError as e:
                    errors.append(f"{customer['id']}: {e.type}")
                finally:
                    async with lock:
                        in_flight -= 1
            handled += 1
        finally:
            queue.task_done()


workers = [asyncio.create_task(worker(f"w{i}"), name=f"w{i}") for i in range(3)]
await queue.join()
for _ in workers:
    await queue.put((99, next(counter), None))
handled = await asyncio.gather(*workers)
order = [cid for _, cid, _ in sorted(sent)]
print(f"sent {len(sent)}, errors {errors}")
return {
    "handled_total": sum(handled),
    "sent_by_seq": order,
    "errors": errors,
    "max_in_flight_ok": max_in_flight <= 2,
    "queue_empty": queue.empty(),
    "names": sorted(t.get_name() for t in workers),
}

# description: Use a worker pool to fetch warehouse stock, putting timed-out SKUs back on the queue
# value: {"results": {"CB-05": 120, "HD-10": 42, "HS-07": 9, "KB-01": 14, "LP-14": 3, "MN-27": 6, "MS-02": 0}, "gave_up": {"ZZ-01": "LookupError"}, "retries": 6, "workers_cancelled": true, "max_attempt": 3}
# logs: ["7 ok, 1 gave up, 6 retries"]
import asyncio

queue: asyncio.Queue = asyncio.Queue()
MAX_TRIES = 3
results: dict[str, int] = {}
gave_up: dict[str, str] = {}
trace: list[str] = []

async def worker(name: str):
    while True:
        sku, tries = await queue.get()
        try:
            s = await tools.warehouse_stock(sku=sku)
            results[sku] = s["north"] + s["south"]
            trace.append(f"{sku}:ok@{tries + 1}")
        except ToolCallError as e:
            if e.type == "TimeoutError" and tries + 1 < MAX_TRIES:
                trace.append(f"{sku}:retry")
                queue.put_nowait((sku, tries + 1))
            else:
                gave_up[sku] = e.type or "unknown"
        finally:
            queue.task_done()

skus = [p["sku"] for p in await tools.list_products()] + ["ZZ-01"]
for sku in skus:
    queue.put_nowait((sku, 0))
workers = [asyncio.create_task(worker(f"w{i}")) for i in range(3)]
await queue.join()
for w in workers:
    w.cancel()
outcomes = await asyncio.gather(*workers, return_exceptions=True)

retries = sum(1 for t in trace if t.endswith("retry"))
print(f"{len(results)} ok, {len(gave_up)} gave up, {retries} retries")
return {"results": dict(sorted(results.items())), "gave_up": gave_up, "retries": retries,
        "workers_cancelled": all(isinstance(o, asyncio.CancelledError) for o in outcomes),
        "max_attempt": max(int(t.split("@")[1]) for t in trace if "@" in t)}

# description: Notify VIPs with a worker queue, check stock with TaskGroup and as_completed
# value: {"sent": [["c1", "queued"], ["c4", "queued"], ["c6", "queued"]], "workers_cancelled": true, "stock": {"KB-01": 14, "MS-02": 0, "MN-27": 6, "HD-10": 42, "CB-05": 120, "LP-14": 3, "HS-07": 9}, "totals": [70.5, 118.25, 447.0]}
import asyncio

customers = await tools.list_customers()
vips = [c for c in customers if "vip" in c["tags"]]

queue: asyncio.Queue = asyncio.Queue()
for c in vips:
    queue.put_nowait(c)

sent: list[tuple[str, str]] = []


async def worker(name: str):
    while True:
        c = await queue.get()
        try:
            r = await tools.send_notification(to=c["email"], message=f"Hi {c['name'].split()[0]}, thanks for being a VIP!")
            sent.append((c["id"], r["status"]))
        finally:
            queue.task_done()


workers = [asyncio.create_task(worker(f"w{i}")) for i in range(2)]
await queue.join()
for w in workers:
    w.cancel()
cancelled = await asyncio.gather(*workers, return_exceptions=True)

products = await tools.list_products()
async with asyncio.TaskGroup() as tg:
    tasks = {p["sku"]: tg.create_task(tools.get_stock(sku=p["sku"])) for p in products}
stock = {sku: t.result() for sku, t in tasks.items()}

order_ids = ["o-1001", "o-1005", "o-1009"]
totals = []
for fut in asyncio.as_completed([tools.get_order(order_id=o) for o in order_ids]):
    order = await fut
    totals.append(order["total"])

return {
    "sent": sorted(sent),
    "workers_cancelled": all(isinstance(x, asyncio.CancelledError) for x in cancelled),
    "stock": stock,
    "totals": sorted(totals),
}

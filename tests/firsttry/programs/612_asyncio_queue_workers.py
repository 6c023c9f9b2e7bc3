# description: Check stock for every product with a queue and three worker tasks
# value: {"stock": {"CB-05": 120, "HD-10": 42, "HS-07": 9, "KB-01": 14, "LP-14": 3, "MN-27": 6, "MS-02": 0}, "errors": [], "empty": true}
import asyncio

products = await tools.list_products()
queue = asyncio.Queue()
for p in products:
    queue.put_nowait(p["sku"])

results = {}
errors = []

async def worker(name):
    while True:
        sku = await queue.get()
        try:
            for attempt in range(3):
                try:
                    stock = await tools.warehouse_stock(sku=sku)
                    results[sku] = stock["north"] + stock["south"]
                    break
                except ToolCallError as e:
                    if e.type != "TimeoutError" or attempt == 2:
                        errors.append(sku)
                        break
        finally:
            queue.task_done()

workers = [asyncio.create_task(worker(f"w{i}")) for i in range(3)]
await queue.join()
for w in workers:
    w.cancel()
await asyncio.gather(*workers, return_exceptions=True)
return {"stock": dict(sorted(results.items())), "errors": errors, "empty": queue.empty()}

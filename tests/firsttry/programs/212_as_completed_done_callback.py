# description: Stream stock lookups as they complete and record completions with a callable done-callback
# value: {"low": [0, 3, 6, 9], "callbacks": [["stock:CB-05", true], ["stock:KB-01", true], ["stock:NOPE", false]], "ok": ["stock:CB-05", "stock:KB-01"], "pending": 0, "first": 14}
# limitation: asyncio.shield is not in the asyncio facade
import asyncio


class Recorder:
    def __init__(self):
        self.done = []

    def __call__(self, task):
        self.done.append((task.get_name(), task.exception() is None))


products = await tools.list_products()
low = {}
for fut in asyncio.as_completed([tools.get_stock(sku=p["sku"]) for p in products]):
    n = await fut
    if n < 10:
        low.setdefault("low", []).append(n)

rec = Recorder()
tasks = []
for sku in ("KB-01", "NOPE", "CB-05"):
    t = asyncio.create_task(tools.get_stock(sku=sku), name=f"stock:{sku}")
    t.add_done_callback(rec)
    tasks.append(t)
done, pending = await asyncio.wait(tasks)
await asyncio.sleep(0)
ok = sorted(t.get_name() for t in done if not t.exception())
first = await asyncio.wait_for(asyncio.shield(tasks[0]), timeout=1)
return {"low": sorted(low["low"]), "callbacks": sorted(rec.done), "ok": ok, "pending": len(pending), "first": first}

# description: Fetch stock for every product in a TaskGroup, reading task.result() afterwards, and handle failures with except*
# value: {"stock": {"KB-01": 14, "MS-02": 0, "MN-27": 6, "HD-10": 42, "CB-05": 120, "LP-14": 3, "HS-07": 9}, "names": ["stock-CB-05", "stock-HD-10"], "failures": ["tool \"get_stock\" raised LookupError: unknown sku 'XX-00'"], "count": 1, "done": true}
import asyncio

products = await tools.list_products()
tasks = {}
async with asyncio.TaskGroup() as tg:
    for p in products:
        tasks[p["sku"]] = tg.create_task(tools.get_stock(sku=p["sku"]), name=f"stock-{p['sku']}")
stock = {sku: t.result() for sku, t in tasks.items()}
names = sorted(t.get_name() for t in tasks.values())[:2]
failures = []
try:
    async with asyncio.TaskGroup() as tg:
        # One failing call: once it fails the group cancels the others, so a
        # second failure would be seen or not depending on which answer came first.
        for sku in ["KB-01", "XX-00", "MS-02"]:
            tg.create_task(tools.get_stock(sku=sku))
except* ToolCallError as group:
    failures = sorted(str(e) for e in group.exceptions)
    count = len(group.exceptions)
return {"stock": stock, "names": names, "failures": failures, "count": count,
        "done": all(t.done() for t in tasks.values())}

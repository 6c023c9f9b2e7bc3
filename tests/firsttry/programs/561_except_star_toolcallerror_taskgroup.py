# description: Run stock checks in a task group and collect the failed ones with except*
# value: {"failed_count": 1, "first": "tool \"get_stock\" raised LookupError: unknown sku 'BAD-1'"}
import asyncio
skus = ["KB-01", "BAD-1", "CB-05"]
failed = []
try:
    async with asyncio.TaskGroup() as tg:
        for sku in skus:
            tg.create_task(tools.get_stock(sku=sku))
except* ToolCallError as group:
    failed = sorted(str(e) for e in group.exceptions)
return {"failed_count": len(failed), "first": failed[0] if failed else None}

# description: Retry the flaky warehouse on TimeoutError and report attempts per SKU
# value: [{"sku": "KB-01", "attempts": 2, "total": 14}, {"sku": "MN-27", "attempts": 3, "total": 6}, {"sku": "HS-07", "attempts": 1, "total": 9}, {"sku": "XX-00", "attempts": 3, "error": "LookupError"}]
import asyncio

async def stock(sku, tries=4):
    for attempt in range(1, tries + 1):
        try:
            row = await tools.warehouse_stock(sku=sku)
            return {"sku": sku, "attempts": attempt, "total": row["north"] + row["south"]}
        except ToolCallError as e:
            if e.type != "TimeoutError":
                return {"sku": sku, "attempts": attempt, "error": e.type}
    return {"sku": sku, "attempts": tries, "error": "gave up"}

return await asyncio.gather(*(stock(s) for s in ["KB-01", "MN-27", "HS-07", "XX-00"]))

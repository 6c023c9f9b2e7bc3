# description: Check stock for a list of SKUs, some of which may not exist
# value: {"stock": {"KB-01": 14, "MS-02": 0, "HD-10": 42}, "unknown": ["??", "XX-99"], "available": ["KB-01", "HD-10"]}
import asyncio

skus = ["KB-01", "XX-99", "MS-02", "HD-10", "??"]
results = await asyncio.gather(*[tools.get_stock(sku=s) for s in skus], return_exceptions=True)

stock, errors = {}, {}
for sku, res in zip(skus, results):
    if isinstance(res, ToolCallError):
        errors[sku] = res.tool_name
    else:
        stock[sku] = res

available = [s for s, n in stock.items() if n > 0]
return {"stock": stock, "unknown": sorted(errors), "available": available}

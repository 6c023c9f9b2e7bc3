# description: Check stock of every SKU 20 times concurrently (150+ calls) and confirm the answers agree
# value: {"calls": 154, "consistent": true, "total_units": 194}
# logs: ["making 154 calls"]
import asyncio
products = await tools.list_products()
skus = [p["sku"] for p in products]
calls = [tools.get_stock(sku=s) for s in skus for _ in range(22)]
print(f"making {len(calls)} calls")
results = await asyncio.gather(*calls)
by_sku = {}
for sku, units in zip([s for s in skus for _ in range(22)], results):
    by_sku.setdefault(sku, set()).add(units)
return {"calls": len(results), "consistent": all(len(v) == 1 for v in by_sku.values()), "total_units": sum(next(iter(v)) for v in by_sku.values())}

# description: Band customers by lifetime spend with bisect, including key= lookups
# value: {"band": {"c1": "platinum", "c2": "silver", "c3": "bronze", "c4": "gold", "c5": "bronze", "c6": "platinum"}, "ranked": ["c1", "c6", "c4", "c2", "c3", "c5"], "under_40": ["CB-05", "MS-02", "HD-10"]}
import asyncio
import bisect

customers = await tools.list_customers()
orders = await asyncio.gather(*(tools.list_orders(customer_id=c["id"]) for c in customers))
spend = {c["id"]: round(sum(o["total"] for o in os if o["status"] != "cancelled"), 2)
         for c, os in zip(customers, orders)}

breaks = [50, 200, 500, 1000]
bands = ["bronze", "silver", "gold", "platinum", "diamond"]
band = {cid: bands[bisect.bisect_right(breaks, s)] for cid, s in spend.items()}

ranked = []
for cid, s in spend.items():
    bisect.insort(ranked, (s, cid), key=lambda t: -t[0])
products = sorted(await tools.list_products(), key=lambda p: p["price"])
i = bisect.bisect_left(products, 40, key=lambda p: p["price"])
return {
    "band": band,
    "ranked": [cid for _, cid in ranked],
    "under_40": [p["sku"] for p in products[:i]],
}

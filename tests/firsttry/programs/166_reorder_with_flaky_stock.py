# description: Compute reorder quantities from the flaky warehouse service
# value: {"orders": {"KB-01": {"packs": 2, "units": 10, "cost": 890.0}, "MS-02": {"packs": 7, "units": 35, "cost": 892.5}, "LP-14": {"packs": 1, "units": 10, "cost": 450.0}, "HS-07": {"packs": 2, "units": 6, "cost": 894.0}}, "failed": [], "spend": 3126.5}
import asyncio
import math

PACK = {"peripherals": 5, "displays": 2, "accessories": 10, "audio": 3}
TARGET_DAYS = 14

async def stock(sku: str, tries: int = 3) -> int:
    for i in range(tries):
        try:
            w = await tools.warehouse_stock(sku=sku)
            return w["north"] + w["south"]
        except ToolCallError as e:
            if e.type == "TimeoutError" and i < tries - 1:
                continue
            raise

products = await tools.list_products()
levels = await asyncio.gather(*(stock(p["sku"]) for p in products), return_exceptions=True)
daily_demand = {"KB-01": 1.5, "MS-02": 2.2, "MN-27": 0.4, "HD-10": 1.0, "CB-05": 3.0, "LP-14": 0.7, "HS-07": 0.9}
orders = {}
failed = []
for p, level in zip(products, levels):
    if isinstance(level, Exception):
        failed.append(p["sku"])
        continue
    need = daily_demand[p["sku"]] * TARGET_DAYS - level
    if need > 0:
        pack = PACK[p["category"]]
        orders[p["sku"]] = {"packs": math.ceil(need / pack), "units": math.ceil(need / pack) * pack, "cost": round(math.ceil(need / pack) * pack * p["price"], 2)}
return {"orders": orders, "failed": failed, "spend": round(sum(o["cost"] for o in orders.values()), 2)}

# description: A customer report object with cached properties over tool data
# value: {"computed": [1, 1, 1], "skus": {"c1": ["CB-05", "HD-10", "HS-07", "KB-01", "MN-27"], "c4": ["CB-05", "HD-10", "MN-27"], "c6": ["HD-10", "HS-07", "KB-01", "LP-14"]}}
# logs: ["Ada Lovelace: \u20ac678.23 over 3 orders", "Katherine Johnson: \u20ac357.99 over 2 orders", "Margaret Hamilton: \u20ac486.00 over 3 orders"]
from functools import cached_property

class CustomerReport:
    def __init__(self, customer: dict, orders: list[dict]):
        self.customer = customer
        self.orders = orders
        self.computed = 0

    @cached_property
    def lifetime_value(self) -> float:
        self.computed += 1
        return round(sum(o["total"] for o in self.orders if o["status"] in ("shipped", "delivered")), 2)

    @cached_property
    def skus(self) -> set[str]:
        return {l["sku"] for o in self.orders for l in o["lines"]}

    def __str__(self):
        return f"{self.customer['name']}: €{self.lifetime_value:,.2f} over {len(self.orders)} orders"

reports = []
for cid in ["c1", "c4", "c6"]:
    c, orders = await tools.get_customer(customer_id=cid), await tools.list_orders(customer_id=cid)
    reports.append(CustomerReport(c, orders))

for r in reports:
    _ = r.lifetime_value, r.lifetime_value
    print(r)
return {"computed": [r.computed for r in reports], "skus": {r.customer["id"]: sorted(r.skus) for r in reports}}

# description: A customer view class whose derived figures are cached_property values
# value: {"top": ["c1", "c6", "c4"], "open": {"c1": ["o-1002", "o-1003"], "c2": ["o-1005"], "c4": ["o-1008"], "c6": ["o-1009", "o-1010"]}, "computed": 6}
# logs: ["CustomerView('c1', ltv=866.23)", "CustomerView('c6', ltv=754.0)", "CustomerView('c4', ltv=455.49)"]
from functools import cached_property
import asyncio

class CustomerView:
    computed = 0

    def __init__(self, customer: dict, orders: list[dict]):
        self.customer = customer
        self.orders = orders

    @cached_property
    def lifetime_value(self) -> float:
        CustomerView.computed += 1
        return round(sum(o["total"] for o in self.orders if o["status"] != "cancelled"), 2)

    @cached_property
    def open_orders(self) -> list[str]:
        return [o["id"] for o in self.orders if o["status"] in ("pending", "shipped")]

    def __repr__(self) -> str:
        return f"CustomerView({self.customer['id']!r}, ltv={self.lifetime_value})"

customers = await tools.list_customers()
all_orders = await asyncio.gather(*[tools.list_orders(customer_id=c["id"]) for c in customers])
views = [CustomerView(c, o) for c, o in zip(customers, all_orders)]
top = sorted(views, key=lambda v: v.lifetime_value, reverse=True)[:3]
for v in top:
    print(repr(v))
return {"top": [v.customer["id"] for v in top], "open": {v.customer["id"]: v.open_orders for v in views if v.open_orders}, "computed": CustomerView.computed}

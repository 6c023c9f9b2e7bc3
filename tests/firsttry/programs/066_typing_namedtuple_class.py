# description: Summarise orders with a typed NamedTuple
# value: {"biggest": {"order_id": "o-1005", "units": 4, "total": 63.45, "status": "pending"}, "ids": ["o-1004", "o-1005"]}
from typing import NamedTuple


class OrderSummary(NamedTuple):
    order_id: str
    units: int
    total: float
    status: str = "unknown"


orders = await tools.list_orders(customer_id="c2")
summaries = [
    OrderSummary(o["id"], sum(l["quantity"] for l in o["lines"]), o["total"], o["status"])
    for o in orders
]
biggest = max(summaries, key=lambda s: s.total)
adjusted = biggest._replace(total=round(biggest.total * 0.9, 2))
return {"biggest": adjusted._asdict(), "ids": [s.order_id for s in summaries]}

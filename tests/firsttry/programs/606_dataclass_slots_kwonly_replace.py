# description: Build immutable order views with slots and kw_only dataclasses, then discount them
# value: {"views": [{"order_id": "o-1009", "customer": "Margaret Hamilton", "total": 402.3, "status": "shipped", "skus": ["HS-07"]}, {"order_id": "o-1010", "customer": "Margaret Hamilton", "total": 241.2, "status": "pending", "skus": ["LP-14", "KB-01"]}, {"order_id": "o-1011", "customer": "Margaret Hamilton", "total": 39.0, "status": "delivered", "skus": ["HD-10"]}], "changed": 2}
# logs: ["frozen: FrozenInstanceError", "['order_id', 'customer', 'total', 'status', 'skus']", "False"]
import asyncio
import dataclasses
from dataclasses import dataclass, field, replace, asdict, fields

@dataclass(slots=True, kw_only=True, frozen=True)
class OrderView:
    order_id: str
    customer: str
    total: float
    status: str = "pending"
    skus: tuple[str, ...] = field(default_factory=tuple)

    @property
    def is_large(self) -> bool:
        return self.total >= 100

orders, customer = await asyncio.gather(
    tools.list_orders(customer_id="c6"), tools.get_customer(customer_id="c6")
)
views = [
    OrderView(order_id=o["id"], customer=customer["name"], total=o["total"], status=o["status"],
              skus=tuple(l["sku"] for l in o["lines"]))
    for o in orders
]
discounted = [replace(v, total=round(v.total * 0.9, 2)) if v.is_large else v for v in views]
try:
    views[0].total = 0
except dataclasses.FrozenInstanceError as e:
    print("frozen:", type(e).__name__)
print([f.name for f in fields(OrderView)])
print(hasattr(views[0], "__dict__"))
return {"views": [asdict(v) for v in discounted], "changed": sum(a != b for a, b in zip(views, discounted))}

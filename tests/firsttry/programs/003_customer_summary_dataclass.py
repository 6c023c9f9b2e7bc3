# description: Build a summary of customer c1 with their orders
# value: {"name": "Ada Lovelace", "email": "ada@example.com", "city": "London", "order_count": 3, "lifetime_value": 866.23, "open_orders": ["o-1002", "o-1003"]}
from dataclasses import dataclass, field, asdict


@dataclass
class CustomerSummary:
    name: str
    email: str
    city: str
    order_count: int = 0
    lifetime_value: float = 0.0
    open_orders: list[str] = field(default_factory=list)


customer = await tools.get_customer(customer_id="c1")
orders = await tools.list_orders(customer_id="c1")

summary = CustomerSummary(
    name=customer["name"],
    email=customer["email"],
    city=customer["address"]["city"],
)
for order in orders:
    summary.order_count += 1
    if order["status"] != "cancelled":
        summary.lifetime_value += order["total"]
    if order["status"] in ("pending", "shipped"):
        summary.open_orders.append(order["id"])

summary.lifetime_value = round(summary.lifetime_value, 2)
return asdict(summary)

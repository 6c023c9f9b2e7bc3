# description: Open tickets for orders shipped more than five days ago
# value: [{"ticket": "T-101", "subject": "Order o-1009 in transit for 7 days", "priority": "high"}]
import asyncio
from datetime import datetime, timezone

now = datetime.fromisoformat(await tools.current_time())
customers = await tools.list_customers()
shipped = await asyncio.gather(
    *[tools.list_orders(customer_id=c["id"], status="shipped") for c in customers]
)

tickets = []
for customer, orders in zip(customers, shipped):
    for order in orders:
        created = datetime.strptime(order["created"], "%Y-%m-%d").replace(tzinfo=timezone.utc)
        age = (now - created).days
        if age > 5:
            t = await tools.create_ticket(
                customer_id=customer["id"],
                subject=f"Order {order['id']} in transit for {age} days",
                priority="high" if age > 6 else "normal",
            )
            tickets.append({"ticket": t["id"], "subject": t["subject"], "priority": t["priority"]})

return tickets

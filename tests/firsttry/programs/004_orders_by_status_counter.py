# description: Count orders by status across all customers
# value: {"delivered": 4, "shipped": 2, "pending": 4, "cancelled": 1}
import asyncio
from collections import Counter

customers = await tools.list_customers()
order_lists = await asyncio.gather(
    *(tools.list_orders(customer_id=c["id"]) for c in customers)
)

status_counts = Counter()
for orders in order_lists:
    status_counts.update(o["status"] for o in orders)

print("Most common:", status_counts.most_common(1))
return dict(status_counts)

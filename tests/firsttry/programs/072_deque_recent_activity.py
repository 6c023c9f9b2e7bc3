# description: Keep the five most recent orders in a bounded queue
# value: {"recent": ["o-1002", "o-1008", "o-1005", "o-1003", "o-1010"], "newest": "o-1010", "left": 8}
import asyncio
from collections import deque

customers = await tools.list_customers()
batches = await asyncio.gather(*(tools.list_orders(customer_id=c["id"]) for c in customers))
orders = sorted((o for batch in batches for o in batch), key=lambda o: o["created"])

recent = deque(maxlen=5)
for order in orders:
    recent.append(order["id"])

queue = deque(orders)
processed = 0
while queue and processed < 3:
    order = queue.popleft()
    processed += 1
print(f"processed {processed}, {len(queue)} left")

return {"recent": list(recent), "newest": recent[-1], "left": len(queue)}

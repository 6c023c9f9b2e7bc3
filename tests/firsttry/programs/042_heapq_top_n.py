# description: Find the three largest orders overall
# value: {"top3": [{"id": "o-1002", "total": 559.98}, {"id": "o-1009", "total": 447.0}, {"id": "o-1007", "total": 357.99}], "smallest": [39.0, 45.0], "oldest": "o-1011"}
import asyncio
import heapq

customers = await tools.list_customers()
orders = []
for batch in await asyncio.gather(*(tools.list_orders(customer_id=c["id"]) for c in customers)):
    orders.extend(batch)

top3 = heapq.nlargest(3, orders, key=lambda o: o["total"])
smallest = heapq.nsmallest(2, (o["total"] for o in orders))

heap = []
for o in orders:
    heapq.heappush(heap, (o["created"], o["id"]))
oldest = heapq.heappop(heap)[1]

return {"top3": [{"id": o["id"], "total": o["total"]} for o in top3],
        "smallest": smallest, "oldest": oldest}

# description: Build a nested per-tier report: customers, their order counts by status, and lifetime value
# value: {"enterprise": {"customers": [{"id": "c1", "name": "Ada Lovelace", "city": "London", "orders": {"delivered": 1, "shipped": 1, "pending": 1}, "lines": 5}, {"id": "c6", "name": "Margaret Hamilton", "city": "Boston", "orders": {"shipped": 1, "pending": 1, "delivered": 1}, "lines": 4}], "value": 1620.23}, "pro": {"customers": [{"id": "c2", "name": "Grace Hopper", "city": "Arlington", "orders": {"delivered": 1, "pending": 1}, "lines": 3}, {"id": "c4", "name": "Katherine Johnson", "city": "Hampton", "orders": {"delivered": 1, "pending": 1}, "lines": 3}], "value": 570.99}, "free": {"customers": [{"id": "c3", "name": "Alan Turing", "city": "Manchester", "orders": {"cancelled": 1}, "lines": 1}, {"id": "c5", "name": "Edsger Dijkstra", "city": "Eindhoven", "orders": {}, "lines": 0}], "value": 0.0}}
import asyncio
from collections import Counter
customers = await tools.list_customers()
orders = await asyncio.gather(*(tools.list_orders(customer_id=c["id"]) for c in customers))
report = {}
for c, os_ in zip(customers, orders):
    tier = report.setdefault(c["tier"], {"customers": [], "value": 0.0})
    tier["customers"].append({
        "id": c["id"],
        "name": c["name"],
        "city": c["address"]["city"],
        "orders": dict(Counter(o["status"] for o in os_)),
        "lines": sum(len(o["lines"]) for o in os_),
    })
    tier["value"] = round(tier["value"] + sum(o["total"] for o in os_ if o["status"] != "cancelled"), 2)
return report

# description: Group all orders by month
# value: {"by_month": {"2024-01": {"count": 1, "total": 39.0}, "2024-02": {"count": 1, "total": 357.99}, "2024-03": {"count": 1, "total": 89.0}, "2024-04": {"count": 1, "total": 45.0}, "2024-05": {"count": 1, "total": 118.25}, "2024-06": {"count": 6, "total": 1630.98}}, "first_three": ["o-1011", "o-1007", "o-1006"]}
import asyncio
import itertools

customers = await tools.list_customers()
batches = await asyncio.gather(*(tools.list_orders(customer_id=c["id"]) for c in customers))
orders = list(itertools.chain.from_iterable(batches))
orders.sort(key=lambda o: o["created"])

by_month = {}
for month, group in itertools.groupby(orders, key=lambda o: o["created"][:7]):
    group = list(group)
    by_month[month] = {"count": len(group), "total": round(sum(o["total"] for o in group), 2)}

first_three = [o["id"] for o in itertools.islice(orders, 3)]
return {"by_month": by_month, "first_three": first_three}

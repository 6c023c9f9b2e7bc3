# description: Pair customer names with their order counts
# value: [["Grace Hopper", 2], ["Katherine Johnson", 2]]
import asyncio

customers = await tools.list_customers(tier="pro")
counts = await asyncio.gather(*(tools.list_orders(customer_id=c["id"]) for c in customers))
names = [c["name"] for c in customers]
totals = [len(orders) for orders in counts]
return list(zip(names, totals))

# description: Rank customers by revenue
# value: [["Ada Lovelace", 866.23], ["Margaret Hamilton", 754.0], ["Katherine Johnson", 455.49], ["Grace Hopper", 115.5], ["Alan Turing", 0], ["Edsger Dijkstra", 0]]
import asyncio

customers = await tools.list_customers()
all_orders = await asyncio.gather(*[tools.list_orders(customer_id=c["id"]) for c in customers])

revenue = {}
for customer, orders in zip(customers, all_orders):
    revenue[customer["name"]] = round(
        sum(o["total"] for o in orders if o["status"] != "cancelled"), 2
    )

ranking = sorted(revenue.items(), key=lambda kv: kv[1], reverse=True)
return ranking

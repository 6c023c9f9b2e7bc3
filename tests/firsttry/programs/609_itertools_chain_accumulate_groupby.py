# description: Running revenue per customer from all orders using chain, groupby and accumulate
# value: {"running": {"c1": [118.25, 678.23, 866.23], "c2": [45.0, 115.5], "c3": [], "c4": [357.99, 455.49], "c6": [39.0, 486.0, 754.0]}, "line_count": 16, "max_running": 8}
import asyncio
from itertools import chain, groupby, accumulate
from operator import itemgetter

customers = await tools.list_customers()
per_customer = await asyncio.gather(*(tools.list_orders(customer_id=c["id"]) for c in customers))
all_orders = sorted(chain.from_iterable(per_customer), key=itemgetter("customer_id", "created"))

running = {}
for cid, group in groupby(all_orders, key=itemgetter("customer_id")):
    totals = [o["total"] for o in group if o["status"] != "cancelled"]
    running[cid] = [round(x, 2) for x in accumulate(totals, initial=0)][1:]

lines = list(chain.from_iterable(o["lines"] for o in all_orders))
return {"running": running, "line_count": len(lines), "max_running": max(accumulate([1, 5, 2, 8, 3], max))}

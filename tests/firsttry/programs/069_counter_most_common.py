# description: Find the three best-selling products by units
# value: [["Braided cable", 15], ["Noise-cancelling headset", 4], ["USB-C hub", 4]]
import asyncio
from collections import Counter

customers = await tools.list_customers()
all_orders = await asyncio.gather(*(tools.list_orders(customer_id=c["id"]) for c in customers))

units = Counter()
for orders in all_orders:
    for order in orders:
        if order["status"] == "cancelled":
            continue
        for line in order["lines"]:
            units[line["name"]] += line["quantity"]

return units.most_common(3)

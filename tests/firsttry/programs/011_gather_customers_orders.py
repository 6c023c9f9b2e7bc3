# description: List every customer's latest order
# value: {"c1": {"order": "o-1003", "date": "2024-06-14"}, "c2": {"order": "o-1005", "date": "2024-06-13"}, "c3": {"order": "o-1006", "date": "2024-03-30"}, "c4": {"order": "o-1008", "date": "2024-06-12"}, "c5": null, "c6": {"order": "o-1010", "date": "2024-06-15"}}
# logs: ["Checked 6 customers"]
import asyncio

customers = await tools.list_customers()
orders_per_customer = await asyncio.gather(
    *[tools.list_orders(customer_id=c["id"]) for c in customers]
)

latest = {}
for customer, orders in zip(customers, orders_per_customer):
    if not orders:
        latest[customer["id"]] = None
        continue
    newest = max(orders, key=lambda o: o["created"])
    latest[customer["id"]] = {"order": newest["id"], "date": newest["created"]}

print(f"Checked {len(customers)} customers")
return latest

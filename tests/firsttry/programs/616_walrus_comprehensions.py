# description: Find customers with expensive pending orders using walrus in comprehensions
# value: {"flagged": {"Ada Lovelace": 188.0, "Grace Hopper": 70.5, "Katherine Johnson": 97.5, "Margaret Hamilton": 268.0}, "big_lines": [["o-1003", "HS-07", 149.0], ["o-1008", "CB-05", 97.5], ["o-1010", "LP-14", 90.0], ["o-1010", "KB-01", 178.0]], "first_free": null, "last_page_start": 40}
import asyncio

customers = await tools.list_customers()
orders_by = dict(zip(
    [c["id"] for c in customers],
    await asyncio.gather(*(tools.list_orders(customer_id=c["id"], status="pending") for c in customers)),
))
flagged = {
    c["name"]: total
    for c in customers
    if (total := round(sum(o["total"] for o in orders_by[c["id"]]), 2)) > 50
}
big_lines = [
    (o["id"], line["sku"], value)
    for orders in orders_by.values()
    for o in orders
    for line in o["lines"]
    if (value := line["quantity"] * line["unit_price"]) >= 90
]
if any((witness := c)["tier"] == "free" and orders_by[c["id"]] for c in customers):
    first_free = witness["name"]
else:
    first_free = None
n = 0
while (page := await tools.list_events(cursor=f"cur_{n}" if n else None, page_size=20))["next_cursor"]:
    n += 20
return {"flagged": flagged, "big_lines": big_lines, "first_free": first_free, "last_page_start": n}

# description: Sort orders by several keys using stable multi-pass sorting
# value: {"same": true, "order": ["o-1007", "o-1001", "o-1004", "o-1011", "o-1010", "o-1003", "o-1008", "o-1005", "o-1002", "o-1009"], "newest": {"c6": "o-1010", "c4": "o-1008", "c2": "o-1005", "c1": "o-1003"}, "cheapest": "o-1011", "max_lines": "o-1001", "casefold_sort": ["Alpha", "alpha", "beta", "Beta"]}
import asyncio

batches = await asyncio.gather(*(tools.list_orders(customer_id=c) for c in ["c1", "c2", "c4", "c6"]))
orders = [o for b in batches for o in b]
by_total = sorted(orders, key=lambda o: o["total"], reverse=True)
by_status_then_total = sorted(by_total, key=lambda o: o["status"])
tuple_key = sorted(orders, key=lambda o: (o["status"], -o["total"]))
newest_per_customer = {}
for o in sorted(orders, key=lambda o: o["created"]):
    newest_per_customer[o["customer_id"]] = o["id"]
cheapest = min(orders, key=lambda o: (o["total"], o["id"]))
return {
    "same": [o["id"] for o in by_status_then_total] == [o["id"] for o in tuple_key],
    "order": [o["id"] for o in tuple_key],
    "newest": newest_per_customer,
    "cheapest": cheapest["id"],
    "max_lines": max(orders, key=lambda o: len(o["lines"]))["id"],
    "casefold_sort": sorted(["beta", "Alpha", "alpha", "Beta"], key=str.casefold),
}

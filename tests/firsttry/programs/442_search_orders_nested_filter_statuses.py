# description: Find pending or shipped orders for customers c1 and c6 and sum their totals per status
# value: {"ids": {"shipped": ["o-1002", "o-1009"], "pending": ["o-1003", "o-1010"]}, "totals": {"shipped": 1006.98, "pending": 456.0}, "more": false}
filters = {"status": ["pending", "shipped"], "customer_ids": ["c1", "c6"]}
page = await tools.search_orders(filters=filters, limit=10)
by_status = {}
for o in page["orders"]:
    by_status.setdefault(o["status"], []).append(o["id"])
totals = {s: round(sum(o["total"] for o in page["orders"] if o["status"] == s), 2) for s in by_status}
return {"ids": by_status, "totals": totals, "more": page["next_cursor"] is not None}

# description: Find customers with error events in the audit log and open one ticket each
# value: [["T-101", "c3", "low"], ["T-102", "c2", "low"], ["T-103", "c1", "high"], ["T-104", "c6", "high"], ["T-105", "c5", "low"], ["T-106", "c4", "low"]]
import asyncio
error_customers = []
cursor = None
while True:
    page = await tools.list_events(cursor=cursor)
    for e in page["items"]:
        if e["kind"] == "error" and e["customer_id"] not in error_customers:
            error_customers.append(e["customer_id"])
    cursor = page["next_cursor"]
    if cursor is None:
        break
customers = await asyncio.gather(*[tools.get_customer(customer_id=c) for c in error_customers])
tickets = []
for c in customers:
    t = await tools.create_ticket(customer_id=c["id"], subject=f"Errors in audit log for {c['name']}", priority="high" if c["tier"] == "enterprise" else "low")
    tickets.append((t["id"], c["id"], t["priority"]))
return tickets

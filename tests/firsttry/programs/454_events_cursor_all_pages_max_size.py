# description: Read the full audit log with the largest page size and total refunds per customer
# value: {"events": 47, "refunds": {"c1": 22.99, "c2": 117.99, "c3": 58.99, "c4": 199.99, "c5": 140.99, "c6": 81.99}}
# logs: ["page: 20 events, total so far 20/47", "page: 20 events, total so far 40/47", "page: 7 events, total so far 47/47"]
cursor = None
events = []
while True:
    page = await tools.list_events(cursor=cursor, page_size=20)
    events += page["items"]
    print(f"page: {len(page['items'])} events, total so far {len(events)}/{page['total']}")
    if not (cursor := page["next_cursor"]):
        break
refunds = {}
for e in events:
    if e["kind"] == "refund":
        refunds[e["customer_id"]] = round(refunds.get(e["customer_id"], 0) + e["amount"], 2)
return {"events": len(events), "refunds": dict(sorted(refunds.items()))}

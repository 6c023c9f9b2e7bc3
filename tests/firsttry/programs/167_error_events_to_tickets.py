# description: Open a ticket for every customer with error events, priority by count
# value: ["T-101 c3 normal: 2 error events this week", "T-102 c1 low: 1 error event this week", "T-103 c2 low: 1 error event this week", "T-104 c4 low: 1 error event this week", "T-105 c5 low: 1 error event this week", "T-106 c6 low: 1 error event this week"]
from collections import Counter

errors = Counter()
cursor = None
while True:
    page = await tools.list_events(cursor=cursor, page_size=20)
    errors.update(e["customer_id"] for e in page["items"] if e["kind"] == "error")
    if (cursor := page["next_cursor"]) is None:
        break

def priority(n: int) -> str:
    match n:
        case 1:
            return "low"
        case 2 | 3:
            return "normal"
        case _:
            return "high"

tickets = []
for cid, n in sorted(errors.items(), key=lambda kv: (-kv[1], kv[0])):
    try:
        t = await tools.create_ticket(customer_id=cid, subject=f"{n} error event{'s' if n != 1 else ''} this week", priority=priority(n))
        tickets.append(f"{t['id']} {cid} {t['priority']}: {t['subject']}")
    except ToolCallError as e:
        tickets.append(f"skipped {cid}: {e}")
return tickets

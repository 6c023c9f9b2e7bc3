# description: Classify events with mapping patterns
# value: {"labels": {"big purchase": 3, "error": 6, "purchase": 9, "refund": 5, "session": 17}, "notes": ["error:c3", "refund:c1", "error:c2", "refund:c6", "error:c1"]}
from collections import Counter

page = await tools.list_events(page_size=20)
page2 = await tools.list_events(cursor=page["next_cursor"], page_size=20)
labels = Counter()
notes = []
for event in page["items"] + page2["items"]:
    match event:
        case {"kind": "purchase", "amount": float(amount)} if amount >= 150:
            labels["big purchase"] += 1
        case {"kind": "purchase"}:
            labels["purchase"] += 1
        case {"kind": "refund" | "error" as kind, "customer_id": cid}:
            labels[kind] += 1
            notes.append(f"{kind}:{cid}")
        case {"kind": "login" | "logout", **rest}:
            labels["session"] += 1
        case _:
            labels["other"] += 1
return {"labels": dict(sorted(labels.items())), "notes": notes[:5]}

# description: Triage pending orders into tickets, ordering them with a multi-rule comparator
# value: {"order": ["o-1010", "o-1003", "o-1008", "o-1005"], "tickets": [["T-101", "o-1010", "high"], ["T-102", "o-1003", "normal"], ["T-103", "o-1008", "normal"], ["T-104", "o-1005", "low"]], "first_lt_last": true}
# logs: ["#1 o-1010 enterprise   268.00 -> T-101", "#2 o-1003 enterprise   188.00 -> T-102", "#3 o-1008 pro           97.50 -> T-103", "#4 o-1005 pro           70.50 -> T-104"]
import functools

TIER_RANK = {"enterprise": 0, "pro": 1, "free": 2}

customers = {c["id"]: c for c in await tools.list_customers()}
pending = []
for cid in customers:
    pending.extend(await tools.list_orders(customer_id=cid, status="pending"))


def compare(a: dict, b: dict) -> int:
    """Enterprise first, then bigger orders, then older orders, then id."""
    ta = TIER_RANK[customers[a["customer_id"]]["tier"]]
    tb = TIER_RANK[customers[b["customer_id"]]["tier"]]
    if ta != tb:
        return ta - tb
    if a["total"] != b["total"]:
        return -1 if a["total"] > b["total"] else 1
    if a["created"] != b["created"]:
        return -1 if a["created"] < b["created"] else 1
    return (a["id"] > b["id"]) - (a["id"] < b["id"])


queue = sorted(pending, key=functools.cmp_to_key(compare))
tickets = []
for rank, order in enumerate(queue, start=1):
    priority = "high" if rank == 1 else "normal" if rank <= 3 else "low"
    t = await tools.create_ticket(
        customer_id=order["customer_id"],
        subject=f"Review pending order {order['id']} ({order['total']:.2f} EUR)",
        priority=priority,
    )
    tickets.append((t["id"], order["id"], t["priority"]))
    print(f"#{rank} {order['id']} {customers[order['customer_id']]['tier']:<10} {order['total']:>8.2f} -> {t['id']}")

key = functools.cmp_to_key(compare)
return {
    "order": [o["id"] for o in queue],
    "tickets": tickets,
    "first_lt_last": key(queue[0]) < key(queue[-1]),
}

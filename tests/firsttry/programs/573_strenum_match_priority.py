# description: Open tickets with a StrEnum priority chosen by a match statement
# value: [["T-101", "high", true], ["T-102", "low", true], ["T-103", "low", true]]
from enum import StrEnum

class Priority(StrEnum):
    LOW = "low"
    NORMAL = "normal"
    HIGH = "high"

def priority_for(tier: str, pending: int) -> Priority:
    match (tier, pending):
        case ("enterprise", _):
            return Priority.HIGH
        case (_, n) if n >= 2:
            return Priority.NORMAL
        case _:
            return Priority.LOW

opened = []
for cid in ("c1", "c2", "c3"):
    customer = await tools.get_customer(customer_id=cid)
    pending = await tools.list_orders(customer_id=cid, status="pending")
    prio = priority_for(customer["tier"], len(pending))
    ticket = await tools.create_ticket(customer_id=cid, subject=f"Review for {customer['name']}", priority=prio)
    opened.append((ticket["id"], ticket["priority"], prio == ticket["priority"]))
return opened

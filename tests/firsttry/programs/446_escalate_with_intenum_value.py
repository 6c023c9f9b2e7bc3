# description: Escalate using an IntEnum for readability, passing its value as the SDK's Literal[1, 2, 3, 4] asks
# value: {"ticket": "T-101", "level": "CRITICAL", "on_call": "pager-primary"}
from enum import IntEnum

class Severity(IntEnum):
    LOW = 1
    MEDIUM = 2
    HIGH = 3
    CRITICAL = 4

ticket = await tools.create_ticket(customer_id="c4", subject="Monitor arrived broken", priority="high")
esc = await tools.escalate_ticket(ticket_id=ticket["id"], severity=Severity.CRITICAL.value)
level = Severity(esc["severity"])
return {"ticket": ticket["id"], "level": level.name, "on_call": esc["on_call"]}

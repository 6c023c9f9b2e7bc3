# description: Open tickets with priorities based on tier
# value: [["T-101", "HIGH"], ["T-102", "NORMAL"], ["T-103", "LOW"]]
from enum import Enum


class Priority(Enum):
    LOW = "low"
    NORMAL = "normal"
    HIGH = "high"

    @classmethod
    def for_tier(cls, tier: str) -> "Priority":
        return {"enterprise": cls.HIGH, "pro": cls.NORMAL}.get(tier, cls.LOW)


customers = await tools.list_customers()
opened = []
for c in customers[:3]:
    priority = Priority.for_tier(c["tier"])
    ticket = await tools.create_ticket(
        customer_id=c["id"], subject="Quarterly check-in", priority=priority.value
    )
    opened.append([ticket["id"], priority.name])

return opened

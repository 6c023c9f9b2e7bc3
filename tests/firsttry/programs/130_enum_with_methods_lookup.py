# description: Order statuses as an Enum with behaviour
# value: {"open": ["o-1002", "o-1003", "o-1009", "o-1010"], "next": {"PENDING": "shipped", "SHIPPED": "delivered", "DELIVERED": null, "CANCELLED": null}, "parsed": ["shipped", "CANCELLED"], "members": 4, "str": "Status.PENDING"}
from enum import Enum, unique

@unique
class Status(Enum):
    PENDING = "pending"
    SHIPPED = "shipped"
    DELIVERED = "delivered"
    CANCELLED = "cancelled"

    @property
    def is_open(self) -> bool:
        return self in (Status.PENDING, Status.SHIPPED)

    def next(self) -> "Status | None":
        flow = [Status.PENDING, Status.SHIPPED, Status.DELIVERED]
        return flow[flow.index(self) + 1] if self in flow[:-1] else None

    @classmethod
    def parse(cls, raw: str) -> "Status":
        try:
            return cls(raw.lower())
        except ValueError:
            return cls[raw.upper()]

orders = await tools.list_orders(customer_id="c1") + await tools.list_orders(customer_id="c6")
statuses = [Status(o["status"]) for o in orders]
open_orders = [o["id"] for o, s in zip(orders, statuses) if s.is_open]
return {
    "open": open_orders,
    "next": {s.name: (n.value if (n := s.next()) else None) for s in Status},
    "parsed": [Status.parse("SHIPPED").value, Status.parse("Cancelled").name],
    "members": len(Status),
    "str": str(Status.PENDING),
}

# description: Route tickets with an Enum using auto(), a classmethod parser, a property and methods, and compare members
# value: {"tickets": [{"id": "T-101", "queue": "BILLING", "describe": "Billing queue #1", "sla": 4, "priority": "high"}, {"id": "T-102", "queue": "SHIPPING", "describe": "Shipping queue #2", "sla": 24, "priority": "normal"}, {"id": "T-103", "queue": "ACCOUNT", "describe": "Account queue #3", "sla": 48, "priority": "normal"}, {"id": "T-104", "queue": "GENERAL", "describe": "General queue #4", "sla": 48, "priority": "normal"}], "members": ["BILLING", "SHIPPING", "ACCOUNT", "GENERAL"], "values": [1, 2, 3, 4], "lookup": [2, "ACCOUNT"], "is": true, "repr": "<Queue.ACCOUNT: 3>", "str": "Queue.ACCOUNT", "level": [2, true, 2], "in": true, "count": 4}
from enum import Enum, IntEnum, auto, unique

@unique
class Queue(Enum):
    BILLING = auto()
    SHIPPING = auto()
    ACCOUNT = auto()
    GENERAL = auto()

    @classmethod
    def for_text(cls, text: str) -> "Queue":
        lowered = text.lower()
        for member in cls:
            if member.name.lower() in lowered:
                return member
        return cls.GENERAL

    @property
    def sla_hours(self) -> int:
        return {Queue.BILLING: 4, Queue.SHIPPING: 24}.get(self, 48)

    def describe(self) -> str:
        return f"{self.name.title()} queue #{self.value}"

class Level(IntEnum):
    LOW = auto()
    HIGH = auto()

subjects = ["Billing: double charge", "Where is my shipping label", "Cannot log in to account", "Hello"]
tickets = []
for i, subject in enumerate(subjects):
    q = Queue.for_text(subject)
    t = await tools.create_ticket(customer_id=f"c{i + 1}", subject=subject,
                                  priority="high" if q.sla_hours < 24 else "normal")
    tickets.append({"id": t["id"], "queue": q.name, "describe": q.describe(), "sla": q.sla_hours, "priority": t["priority"]})
return {
    "tickets": tickets, "members": [m.name for m in Queue], "values": [m.value for m in Queue],
    "lookup": [Queue["SHIPPING"].value, Queue(3).name], "is": Queue.BILLING is Queue.for_text("billing"),
    "repr": repr(Queue.ACCOUNT), "str": str(Queue.ACCOUNT), "level": [int(Level.HIGH), Level.HIGH > Level.LOW, Level.LOW + 1],
    "in": Queue.GENERAL in Queue, "count": len(Queue),
}

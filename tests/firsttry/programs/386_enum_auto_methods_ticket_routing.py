# description: Route tickets using enums with auto values, methods, classmethods and Flag combinations
# value: {"routing": [{"customer": "c1", "severity": "HIGH", "level": 3, "priority": "high", "team": "Logistics", "inbox": "logistics@example.com", "channels": ["EMAIL", "SMS", "PUSH"], "all": true}, {"customer": "c2", "severity": "LOW", "level": 1, "priority": "low", "team": "Billing", "inbox": "billing@example.com", "channels": ["EMAIL"], "all": false}, {"customer": "c3", "severity": "LOW", "level": 1, "priority": "low", "team": "Success", "inbox": "success@example.com", "channels": ["EMAIL"], "all": false}, {"customer": "c4", "severity": "HIGH", "level": 3, "priority": "high", "team": "Logistics", "inbox": "logistics@example.com", "channels": ["EMAIL", "SMS", "PUSH"], "all": true}, {"customer": "c6", "severity": "HIGH", "level": 3, "priority": "high", "team": "Logistics", "inbox": "logistics@example.com", "channels": ["EMAIL", "SMS", "PUSH"], "all": true}], "by_value": "BILLING", "members": ["BILLING", "LOGISTICS", "SUCCESS"]}
# logs: ["LOW=1, MEDIUM=2, HIGH=3, CRITICAL=4"]
from enum import Enum, IntEnum, Flag, auto, unique


@unique
class Severity(IntEnum):
    LOW = auto()
    MEDIUM = auto()
    HIGH = auto()
    CRITICAL = auto()

    @classmethod
    def from_total(cls, total: float) -> "Severity":
        if total >= 800:
            return cls.CRITICAL
        if total >= 300:
            return cls.HIGH
        if total >= 100:
            return cls.MEDIUM
        return cls.LOW

    def priority(self) -> str:
        return {Severity.LOW: "low", Severity.MEDIUM: "normal"}.get(self, "high")


class Channel(Flag):
    NONE = 0
    EMAIL = auto()
    SMS = auto()
    PUSH = auto()
    ALL = EMAIL | SMS | PUSH


class Team(Enum):
    BILLING = "billing"
    LOGISTICS = "logistics"
    SUCCESS = "success"

    def __str__(self) -> str:
        return self.value.title()

    @property
    def inbox(self) -> str:
        return f"{self.value}@example.com"


def team_for(status: str) -> Team:
    match status:
        case "pending":
            return Team.BILLING
        case "shipped" | "delivered":
            return Team.LOGISTICS
        case _:
            return Team.SUCCESS


routing = []
customers = await tools.list_customers()
for c in customers:
    orders = await tools.list_orders(customer_id=c["id"])
    if not orders:
        continue
    biggest = max(orders, key=lambda o: o["total"])
    sev = Severity.from_total(biggest["total"])
    channels = Channel.EMAIL
    if sev >= Severity.HIGH:
        channels |= Channel.SMS
    if "vip" in c["tags"]:
        channels |= Channel.PUSH
    team = team_for(biggest["status"])
    routing.append({
        "customer": c["id"],
        "severity": sev.name,
        "level": int(sev),
        "priority": sev.priority(),
        "team": str(team),
        "inbox": team.inbox,
        "channels": [ch.name for ch in Channel if ch in channels and ch not in (Channel.NONE, Channel.ALL)],
        "all": channels == Channel.ALL,
    })

print(", ".join(f"{m.name}={m.value}" for m in Severity))
return {"routing": routing, "by_value": Team("billing").name, "members": list(Team.__members__)}

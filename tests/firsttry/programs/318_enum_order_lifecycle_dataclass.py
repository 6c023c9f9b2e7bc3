# description: Check each order's lifecycle stage and which transitions an agent may apply next
# value: {"order": ["o-1010", "o-1003", "o-1005", "o-1002", "o-1009", "o-1001", "o-1004", "o-1011", "o-1006"], "terminal": 4, "action_values": {"CANCEL": 1, "SHIP": 2, "CONFIRM_DELIVERY": 3, "NOTIFY": 4}, "bad": "'lost' is not a valid Stage", "repr": "Tracked(order_id='o-1010', stage=<Stage.PENDING: 'pending'>, total=268.0, actions=['cancel', 'ship', 'notify'])", "members": ["PENDING", "SHIPPED", "DELIVERED", "CANCELLED"]}
# logs: ["o-1010 PENDING     268.00 cancel,ship,notify", "o-1003 PENDING     188.00 cancel,ship,notify", "o-1005 PENDING      70.50 cancel,ship,notify", "o-1002 SHIPPED     559.98 confirm_delivery,notify", "o-1009 SHIPPED     447.00 confirm_delivery,notify", "o-1001 DELIVERED   118.25 -", "o-1004 DELIVERED    45.00 -", "o-1011 DELIVERED    39.00 -", "o-1006 CANCELLED    89.00 -"]
from dataclasses import dataclass, field
from enum import Enum, auto, unique

@unique
class Stage(Enum):
    PENDING = "pending"
    SHIPPED = "shipped"
    DELIVERED = "delivered"
    CANCELLED = "cancelled"

    @property
    def terminal(self) -> bool:
        return self in (Stage.DELIVERED, Stage.CANCELLED)

class Action(Enum):
    CANCEL = auto()
    SHIP = auto()
    CONFIRM_DELIVERY = auto()
    NOTIFY = auto()

ALLOWED = {
    Stage.PENDING: [Action.CANCEL, Action.SHIP, Action.NOTIFY],
    Stage.SHIPPED: [Action.CONFIRM_DELIVERY, Action.NOTIFY],
}

@dataclass(order=True)
class Tracked:
    sort_key: tuple = field(init=False, repr=False)
    order_id: str
    stage: Stage
    total: float = 0.0
    actions: list = field(default_factory=list, compare=False)

    def __post_init__(self):
        if not isinstance(self.stage, Stage):
            self.stage = Stage(self.stage)
        self.actions = [a.name.lower() for a in ALLOWED.get(self.stage, [])]
        self.sort_key = (self.stage.terminal, list(Stage).index(self.stage), -self.total)

tracked = []
for cid in ("c1", "c2", "c3", "c6"):
    for o in await tools.list_orders(customer_id=cid):
        tracked.append(Tracked(o["id"], o["status"], o["total"]))
tracked.sort()
for t in tracked:
    print(f"{t.order_id} {t.stage.name:<9} {t.total:>8.2f} {','.join(t.actions) or '-'}")
try:
    Tracked("o-x", "lost")
    bad = None
except ValueError as e:
    bad = str(e)
return {"order": [t.order_id for t in tracked], "terminal": sum(t.stage.terminal for t in tracked),
        "action_values": {a.name: a.value for a in Action}, "bad": bad,
        "repr": repr(tracked[0]), "members": list(Stage.__members__)}

# description: Pick the cheapest shipping method that meets each pending order's deadline
# value: {"today": "2024-06-15", "choices": {"o-1003": {"method": "Express", "fee": 14.0, "arrives": "2024-06-17", "late": false, "order_total": 188.0}, "o-1005": {"method": "Economy", "fee": 4.9, "arrives": "2024-06-24", "late": false, "order_total": 70.5}, "o-1008": {"method": "Express", "fee": 14.0, "arrives": "2024-06-17", "late": false, "order_total": 97.5}, "o-1010": {"method": "Standard", "fee": 7.5, "arrives": "2024-06-19", "late": false, "order_total": 268.0}}, "by_code": "STANDARD", "by_value": "EXPRESS", "bad": "unknown shipping code 'drone'"}
# logs: ["o-1003: Express  \u20ac14.00 arrives Mon 17", "o-1005: Economy  \u20ac 4.90 arrives Mon 24", "o-1008: Express  \u20ac14.00 arrives Mon 17", "o-1010: Standard \u20ac 7.50 arrives Wed 19"]
from enum import Enum, unique
from datetime import date, timedelta

@unique
class Shipping(Enum):
    ECONOMY = ("eco", 4.90, 6)
    STANDARD = ("std", 7.50, 3)
    EXPRESS = ("exp", 14.00, 1)

    def __init__(self, code: str, fee: float, days: int) -> None:
        self.code = code
        self.fee = fee
        self.days = days

    @property
    def label(self) -> str:
        return self.name.title()

    @classmethod
    def from_code(cls, code: str) -> "Shipping":
        for method in cls:
            if method.code == code:
                return method
        raise ValueError(f"unknown shipping code {code!r}")

    def arrives(self, shipped: date) -> date:
        d = shipped
        left = self.days
        while left:
            d += timedelta(days=1)
            if d.weekday() < 5:
                left -= 1
        return d

DEADLINES = {"o-1003": "2024-06-18", "o-1005": "2024-06-25", "o-1008": "2024-06-17", "o-1010": "2024-06-19"}
today = date.fromisoformat((await tools.current_time())[:10])
choices = {}
for order_id, deadline in DEADLINES.items():
    order = await tools.get_order(order_id=order_id)
    due = date.fromisoformat(deadline)
    ok = [m for m in sorted(Shipping, key=lambda m: m.fee) if m.arrives(today) <= due]
    best = ok[0] if ok else Shipping.EXPRESS
    choices[order_id] = {"method": best.label, "fee": best.fee, "arrives": best.arrives(today).isoformat(),
                         "late": not ok, "order_total": order["total"]}
    print(f"{order_id}: {best.label:<8} €{best.fee:>5.2f} arrives {best.arrives(today):%a %d}{'  LATE' if not ok else ''}")
try:
    Shipping.from_code("drone")
    bad = None
except ValueError as e:
    bad = str(e)
return {"today": today.isoformat(), "choices": choices, "by_code": Shipping.from_code("std").name,
        "by_value": Shipping(("exp", 14.00, 1)).name, "bad": bad}

# description: Classify audit events into dataclasses and dispatch with match class patterns, guards and mapping **rest
# value: {"totals": {"c1": 22.0, "c2": 215.98, "c3": 170.99, "c4": 111.99, "c5": -140.99, "c6": 22.0}, "logins": {"c5": 2, "c6": 1, "c4": 1, "c3": 1}, "big": [["c2", 185.99], ["c3", 170.99]], "ignored": 3}
from dataclasses import dataclass
from typing import Union


@dataclass(frozen=True)
class Purchase:
    customer: str
    amount: float


@dataclass(frozen=True)
class Refund:
    customer: str
    amount: float


@dataclass(frozen=True)
class Session:
    customer: str
    kind: str


Event = Union[Purchase, Refund, Session]


def parse(raw: dict) -> Event | None:
    match raw:
        case {"kind": "purchase", "customer_id": str(cid), "amount": float(a) | int(a)}:
            return Purchase(cid, a)
        case {"kind": "refund", "customer_id": cid, "amount": a, **rest} if a > 0:
            return Refund(cid, a)
        case {"kind": "login" | "logout" as k, "customer_id": cid}:
            return Session(cid, k)
        case _:
            return None


page = await tools.list_events(page_size=20)
totals: dict[str, float] = {}
logins: dict[str, int] = {}
big = []
ignored = 0
for raw in page["items"]:
    ev = parse(raw)
    match ev:
        case Purchase(customer=c, amount=a) if a >= 150:
            big.append((c, a))
            totals[c] = totals.get(c, 0) + a
        case Purchase(c, a):
            totals[c] = totals.get(c, 0) + a
        case Refund(c, a):
            totals[c] = totals.get(c, 0) - a
        case Session(c, "login"):
            logins[c] = logins.get(c, 0) + 1
        case Session():
            pass
        case None:
            ignored += 1

return {"totals": {k: round(v, 2) for k, v in sorted(totals.items())}, "logins": logins, "big": big, "ignored": ignored}

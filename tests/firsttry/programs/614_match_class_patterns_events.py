# description: Classify audit events with match on dataclasses, class patterns and guards
# value: {"big-purchase": 2, "big-refund:c5": 1, "error:c1": 1, "error:c2": 1, "error:c3": 1, "login": 5, "logout": 3, "purchase": 2, "refund": 2, "vip-purchase": 2}
from dataclasses import dataclass

@dataclass
class Purchase:
    customer: str
    amount: float

@dataclass
class Refund:
    customer: str
    amount: float

@dataclass
class Session:
    customer: str
    kind: str

def to_event(raw):
    match raw:
        case {"kind": "purchase", "customer_id": c, "amount": a}:
            return Purchase(c, a)
        case {"kind": "refund", "customer_id": c, "amount": a}:
            return Refund(c, a)
        case {"kind": ("login" | "logout" | "error") as k, "customer_id": c}:
            return Session(c, k)

page = await tools.list_events(page_size=20)
labels = []
for ev in map(to_event, page["items"]):
    match ev:
        case Purchase(amount=a) if a >= 150:
            labels.append("big-purchase")
        case Purchase(customer="c1" | "c6"):
            labels.append("vip-purchase")
        case Purchase():
            labels.append("purchase")
        case Refund(c, a) if a > 100:
            labels.append(f"big-refund:{c}")
        case Refund():
            labels.append("refund")
        case Session(kind="error", customer=who):
            labels.append(f"error:{who}")
        case Session(kind=str() as k):
            labels.append(k)
        case _:
            labels.append("?")
from collections import Counter
return dict(sorted(Counter(labels).items()))

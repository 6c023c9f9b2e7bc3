# description: Route support events with match statements using class patterns, guards, mappings and sequences
# value: ["manager", "auto-refund o-1005 70.50", "phone", "refund-desk c2", "email", "phone", "ignore logout", "ignore login", "ignore purchase", "error for c3 (3 extra)", "big purchase", "ignore refund", "batch a..d (2 between)", "single z", "origin", "axis 5", "axis 7", "unknown", "negative", "unknown", "order ref o-1001", "nothing"]
from dataclasses import dataclass


@dataclass
class Refund:
    order_id: str
    amount: float


@dataclass
class Complaint:
    customer_id: str
    text: str
    urgent: bool = False


@dataclass
class Point:
    x: int
    y: int


def route(evt):
    match evt:
        case Refund(amount=a) if a > 300:
            return "manager"
        case Refund(order_id=oid, amount=a):
            return f"auto-refund {oid} {a:.2f}"
        case Complaint(urgent=True) | Complaint(text="broken"):
            return "phone"
        case Complaint(customer_id=cid, text=str(t)) if "refund" in t.lower():
            return f"refund-desk {cid}"
        case Complaint():
            return "email"
        case {"kind": "error", "customer_id": cid, **rest} if rest.get("amount", 0) == 0:
            return f"error for {cid} ({len(rest)} extra)"
        case {"kind": ("purchase" | "refund") as k, "amount": float(amt)} if amt > 150:
            return f"big {k}"
        case {"kind": k}:
            return f"ignore {k}"
        case [first, *middle, last]:
            return f"batch {first}..{last} ({len(middle)} between)"
        case [single]:
            return f"single {single}"
        case Point(0, 0):
            return "origin"
        case Point(x=0, y=y) | Point(x=y, y=0):
            return f"axis {y}"
        case int(n) | float(n) if n < 0:
            return "negative"
        case str() as s if s.startswith("o-"):
            return f"order ref {s}"
        case None:
            return "nothing"
        case _:
            return "unknown"


orders = [await tools.get_order(order_id=i) for i in ("o-1002", "o-1005")]
page = await tools.list_events(page_size=8)
inputs = [Refund(o["id"], o["total"]) for o in orders]
inputs += [Complaint("c1", "broken"), Complaint("c2", "Please REFUND me"), Complaint("c3", "meh"), Complaint("c4", "x", urgent=True)]
inputs += page["items"][:6]
inputs += [["a", "b", "c", "d"], ["z"], Point(0, 0), Point(0, 5), Point(7, 0), Point(1, 1), -3, 2.5, "o-1001", None]
return [route(x) for x in inputs]

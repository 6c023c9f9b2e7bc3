# description: Classify orders and shipment events with match on dataclasses, __match_args__ classes and nested patterns
# value: {"labels": {"o-1001": "multi-line sent", "o-1002": "single-line shipped", "o-1003": "pending starting HS-07 +1", "o-1006": "void", "o-1007": "multi-line sent", "o-1008": "bulk single-line pending", "o-1009": "single-line shipped", "o-1010": "pending starting LP-14 +1", "o-1011": "single-line delivered"}, "bands": ["free", "large EUR", "USD 42"], "events": ["error for c3", "big purchase 185.99 (3 more keys)", "big purchase 170.99 (3 more keys)", "error for c2", "error for c1"], "misc": ["seq 1/2 +2", "one 9", "text ref", "nothing", "ignored"], "match_args": ["id", "status", "lines"]}
# logs: ["o-1001: multi-line sent", "o-1002: single-line shipped", "o-1003: pending starting HS-07 +1", "o-1006: void", "o-1007: multi-line sent", "o-1008: bulk single-line pending", "o-1009: single-line shipped", "o-1010: pending starting LP-14 +1", "o-1011: single-line delivered"]
# limitation: a class cannot define __match_args__ (refused by design: a @dataclass or NamedTuple makes it from its fields)
from dataclasses import dataclass


@dataclass
class Line:
    sku: str
    qty: int
    price: float


@dataclass
class OrderView:
    id: str
    status: str
    lines: list


class Money:
    __match_args__ = ("amount", "currency")

    def __init__(self, amount: float, currency: str) -> None:
        self.amount = amount
        self.currency = currency


def classify(o: OrderView) -> str:
    match o:
        case OrderView(status="cancelled"):
            return "void"
        case OrderView(_, "pending", [Line(qty=q)]) if q >= 5:
            return "bulk single-line pending"
        case OrderView(_, "pending", [Line(sku=sku), *rest]):
            return f"pending starting {sku} +{len(rest)}"
        case OrderView(status="shipped" | "delivered", lines=[_, _, *_]):
            return "multi-line sent"
        case OrderView(status=("shipped" | "delivered") as s):
            return f"single-line {s}"
        case _:
            return "other"


def price_band(m: Money) -> str:
    match m:
        case Money(0, _):
            return "free"
        case Money(amount, "EUR") if amount >= 500:
            return "large EUR"
        case Money(float() | int() as amount, str(cur)):
            return f"{cur} {amount:.0f}"


def event(e):
    match e:
        case {"kind": "purchase" | "refund" as k, "amount": float(a), **rest} if a > 150:
            return f"big {k} {a} ({len(rest)} more keys)"
        case {"kind": "error", "customer_id": cid}:
            return f"error for {cid}"
        case [first, second, *others]:
            return f"seq {first}/{second} +{len(others)}"
        case (x,):
            return f"one {x}"
        case str() as s:
            return f"text {s[:3]}"
        case None:
            return "nothing"
        case _:
            return "ignored"


views = []
for cid in ("c1", "c3", "c4", "c6"):
    for o in await tools.list_orders(customer_id=cid):
        views.append(OrderView(o["id"], o["status"], [Line(l["sku"], l["quantity"], l["unit_price"]) for l in o["lines"]]))
labels = {v.id: classify(v) for v in views}
bands = [price_band(Money(0, "EUR")), price_band(Money(559.98, "EUR")), price_band(Money(42, "USD"))]
page = await tools.list_events(page_size=20)
ev = [event(e) for e in page["items"]]
misc = [event([1, 2, 3, 4]), event((9,)), event("refund"), event(None), event(3.5)]
for k, v in labels.items():
    print(f"{k}: {v}")
return {"labels": labels, "bands": bands, "events": [e for e in ev if e != "ignored"], "misc": misc,
        "match_args": list(OrderView.__match_args__)}

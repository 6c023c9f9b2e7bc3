# description: Classify recent orders and events with pattern matching into follow-up actions
# value: {"orders": {"o-1001": "no action (delivered)", "o-1002": "no action (shipped)", "o-1003": "multi-line pending (2 lines)", "o-1004": "no action (delivered)", "o-1005": "multi-line pending (2 lines)", "o-1007": "no action (delivered)", "o-1008": "bulk single-line order", "o-1009": "no action (shipped)", "o-1010": "multi-line pending (2 lines)", "o-1011": "no action (delivered)"}, "events": {"audit big refund": [20], "contact c1": [18], "contact c2": [11], "contact c3": [4], "ignore login": [2, 7, 9, 14, 16], "ignore logout": [1, 8, 15], "ledger": [3, 5, 6, 10, 12, 13, 17, 19]}}
# logs: ["o-1001: no action (delivered)", "o-1002: no action (shipped)", "o-1003: multi-line pending (2 lines)", "o-1004: no action (delivered)", "o-1005: multi-line pending (2 lines)", "o-1007: no action (delivered)", "o-1008: bulk single-line order", "o-1009: no action (shipped)", "o-1010: multi-line pending (2 lines)", "o-1011: no action (delivered)"]
from dataclasses import dataclass

@dataclass
class Line:
    sku: str
    quantity: int

@dataclass
class OrderView:
    id: str
    status: str
    total: float
    lines: list

def to_view(o: dict) -> OrderView:
    return OrderView(o["id"], o["status"], o["total"], [Line(l["sku"], l["quantity"]) for l in o["lines"]])

def action(item) -> str:
    match item:
        case OrderView(status="pending", total=t) if t > 500:
            return "review large pending order"
        case OrderView(status="pending", lines=[Line(quantity=q)]) if q >= 10:
            return "bulk single-line order"
        case OrderView(status="pending", lines=[_, _, *rest]):
            return f"multi-line pending ({2 + len(rest)} lines)"
        case OrderView(status="shipped" | "delivered" as s):
            return f"no action ({s})"
        case OrderView(status="cancelled"):
            return "archive"
        case {"kind": "refund", "amount": float(a)} if a >= 100:
            return "audit big refund"
        case {"kind": "error", "customer_id": cid}:
            return f"contact {cid}"
        case {"kind": "purchase" | "refund"}:
            return "ledger"
        case {"kind": k, **rest} if not rest.get("amount"):
            return f"ignore {k}"
        case _:
            return "unknown"

views = []
for cid in ("c1", "c2", "c4", "c6"):
    views += [to_view(o) for o in await tools.list_orders(customer_id=cid)]
events = (await tools.list_events(page_size=20))["items"]

order_actions = {v.id: action(v) for v in views}
event_actions = {}
for e in events:
    event_actions.setdefault(action(e), []).append(e["id"])
for oid, act in order_actions.items():
    print(f"{oid}: {act}")
return {"orders": order_actions, "events": {k: v for k, v in sorted(event_actions.items())}}

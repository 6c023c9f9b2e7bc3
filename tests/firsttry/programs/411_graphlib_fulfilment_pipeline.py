# description: Order the fulfilment steps of pending orders with graphlib and run independent steps concurrently
# value: {"waves": [["check_stock"], ["reserve", "ticket_if_short"], ["notify_customer"], ["report"]], "state": {"short": ["MS-02"], "ticket": "T-101", "receipt": "ntf-1"}, "static": ["check_stock", "reserve", "ticket_if_short", "notify_customer", "report"], "cycle": "nodes are in a cycle"}
import asyncio
from graphlib import TopologicalSorter, CycleError

steps = {
    "check_stock": set(),
    "reserve": {"check_stock"},
    "notify_customer": {"reserve"},
    "ticket_if_short": {"check_stock"},
    "report": {"notify_customer", "ticket_if_short"},
}
ts = TopologicalSorter(steps)
ts.prepare()
done: list[list[str]] = []
state: dict[str, object] = {}


async def run(step: str, order: dict):
    if step == "check_stock":
        levels = await asyncio.gather(*(tools.get_stock(sku=l["sku"]) for l in order["lines"]))
        state["short"] = [l["sku"] for l, lvl in zip(order["lines"], levels) if lvl < l["quantity"]]
    elif step == "notify_customer":
        c = await tools.get_customer(customer_id=order["customer_id"])
        r = await tools.send_notification(to=c["email"], message=f"Order {order['id']} is being prepared")
        state["receipt"] = r["id"]
    elif step == "ticket_if_short" and state.get("short"):
        t = await tools.create_ticket(customer_id=order["customer_id"], subject=f"Short stock for {order['id']}", priority="high")
        state["ticket"] = t["id"]
    return step


order = await tools.get_order(order_id="o-1005")
while ts.is_active():
    ready = sorted(ts.get_ready())
    finished = await asyncio.gather(*(run(s, order) for s in ready))
    done.append(list(finished))
    ts.done(*finished)

try:
    list(TopologicalSorter({"a": {"b"}, "b": {"a"}}).static_order())
    cycle = None
except CycleError as e:
    cycle = e.args[0]

return {"waves": done, "state": state, "static": list(TopologicalSorter(steps).static_order()), "cycle": cycle}

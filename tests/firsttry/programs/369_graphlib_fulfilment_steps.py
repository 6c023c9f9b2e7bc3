# description: Plan the fulfilment steps for pending orders in dependency order with graphlib
# value: {"order": ["reserve_stock", "charge_card", "pick", "pack", "label", "notify"], "waves": [["reserve_stock"], ["charge_card", "pick"], ["pack"], ["label"], ["notify"]], "plan": {"o-1003": ["reserve_stock", "charge_card", "pick", "pack", "label", "notify"], "o-1005": ["reserve_stock", "charge_card", "pick", "pack", "label", "notify"]}, "cycle": "nodes are in a cycle"}
# logs: ["[['reserve_stock'], ['charge_card', 'pick'], ['pack'], ['label'], ['notify']]"]
from graphlib import CycleError, TopologicalSorter

steps = {
    "reserve_stock": set(),
    "charge_card": {"reserve_stock"},
    "pick": {"reserve_stock"},
    "pack": {"pick"},
    "label": {"charge_card", "pack"},
    "notify": {"label"},
}
ts = TopologicalSorter(steps)
order = list(ts.static_order())

ts2 = TopologicalSorter(steps)
ts2.prepare()
waves = []
while ts2.is_active():
    ready = sorted(ts2.get_ready())
    waves.append(ready)
    ts2.done(*ready)

pending = []
for cid in ("c1", "c2"):
    pending.extend(o["id"] for o in await tools.list_orders(customer_id=cid, status="pending"))
plan = {oid: order for oid in pending}

try:
    list(TopologicalSorter({"a": {"b"}, "b": {"a"}}).static_order())
    cycle = None
except CycleError as e:
    cycle = e.args[0]
print(waves)
return {"order": order, "waves": waves, "plan": plan, "cycle": cycle}

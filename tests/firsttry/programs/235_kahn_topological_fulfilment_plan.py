# description: Order fulfilment steps by their dependencies and run each layer concurrently
# value: {"plan": [["load_customer", "rates"], ["load_orders"], ["check_stock", "price_in_usd"], ["summary"]], "summary": "Ada Lovelace: $935.53, low stock ['HS-07', 'MN-27']", "cycle": "cycle among ['a', 'b']"}
# logs: ["layer 1: load_customer, rates", "layer 2: load_orders", "layer 3: check_stock, price_in_usd", "layer 4: summary"]
import asyncio
from collections import deque

steps: dict[str, set[str]] = {
    "load_customer": set(),
    "load_orders": {"load_customer"},
    "check_stock": {"load_orders"},
    "rates": set(),
    "price_in_usd": {"load_orders", "rates"},
    "summary": {"check_stock", "price_in_usd"},
}

def layers(graph: dict[str, set[str]]) -> list[list[str]]:
    indegree = {node: len(deps) for node, deps in graph.items()}
    dependents: dict[str, list[str]] = {node: [] for node in graph}
    for node, deps in graph.items():
        for dep in deps:
            dependents[dep].append(node)
    ready = deque(sorted(n for n, d in indegree.items() if d == 0))
    result: list[list[str]] = []
    seen = 0
    while ready:
        layer = list(ready)
        ready.clear()
        result.append(layer)
        seen += len(layer)
        for node in layer:
            for nxt in sorted(dependents[node]):
                indegree[nxt] -= 1
                if indegree[nxt] == 0:
                    ready.append(nxt)
    if seen != len(graph):
        raise ValueError(f"cycle among {sorted(n for n, d in indegree.items() if d)}")
    return result

state: dict[str, object] = {}

async def run(step: str) -> None:
    match step:
        case "load_customer":
            state["customer"] = await tools.get_customer(customer_id="c1")
        case "load_orders":
            state["orders"] = await tools.list_orders(customer_id=state["customer"]["id"])
        case "check_stock":
            skus = sorted({l["sku"] for o in state["orders"] for l in o["lines"]})
            counts = await asyncio.gather(*(tools.get_stock(sku=s) for s in skus))
            state["stock"] = dict(zip(skus, counts))
        case "rates":
            state["usd"] = await tools.get_exchange_rate(base="EUR", quote="USD")
        case "price_in_usd":
            state["usd_total"] = round(sum(o["total"] for o in state["orders"]) * state["usd"], 2)
        case "summary":
            low = [s for s, n in state["stock"].items() if n < 10]
            state["summary"] = f"{state['customer']['name']}: ${state['usd_total']:,.2f}, low stock {low}"

plan = layers(steps)
for i, layer in enumerate(plan, 1):
    print(f"layer {i}: {', '.join(layer)}")
    await asyncio.gather(*(run(s) for s in layer))

try:
    layers({"a": {"b"}, "b": {"a"}, "c": set()})
    cycle = None
except ValueError as e:
    cycle = str(e)
return {"plan": plan, "summary": state["summary"], "cycle": cycle}

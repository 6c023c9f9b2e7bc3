# description: Merge order and event timelines in time order
# value: {"n": 13, "first": [["2024-01-05", "order", "o-1011"], ["2024-05-02", "order", "o-1001"], ["2024-06-08", "order", "o-1009"]], "last": [["2024-06-14", "order", "o-1003"], ["2024-06-15", "order", "o-1010"]]}
import heapq
import asyncio

orders_c1, orders_c6, page = await asyncio.gather(
    tools.list_orders(customer_id="c1"),
    tools.list_orders(customer_id="c6"),
    tools.list_events(page_size=20),
)
order_stream = sorted(
    ((o["created"], "order", o["id"]) for o in orders_c1 + orders_c6),
)
event_stream = [(e["at"][:10], "event", str(e["id"])) for e in page["items"] if e["customer_id"] in {"c1", "c6"}]
merged = list(heapq.merge(order_stream, event_stream, key=lambda t: t[0]))
return {"n": len(merged), "first": merged[:3], "last": merged[-2:]}

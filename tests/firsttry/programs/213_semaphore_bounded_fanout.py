# description: Fetch every customer's orders with at most two requests in flight using asyncio.Semaphore
# value: {"delivered": {"c1": 118.25, "c2": 45.0, "c3": 0, "c4": 357.99, "c5": 0, "c6": 39.0}, "peak_ok": true, "counts": {"c1": 3, "c2": 2, "c3": 1, "c4": 2, "c5": 0, "c6": 3}, "locked_after": false}
import asyncio

sem = asyncio.Semaphore(2)
in_flight = 0
peak = 0
order_counts = {}


async def orders_for(cid):
    nonlocal in_flight, peak
    async with sem:
        in_flight += 1
        peak = max(peak, in_flight)
        try:
            orders = await tools.list_orders(customer_id=cid)
            await asyncio.sleep(0.01)
            order_counts[cid] = len(orders)
            return sum(o["total"] for o in orders if o["status"] == "delivered")
        finally:
            in_flight -= 1


customers = await tools.list_customers()
totals = await asyncio.gather(*(orders_for(c["id"]) for c in customers))
return {"delivered": {c["id"]: round(t, 2) for c, t in zip(customers, totals)}, "peak_ok": 1 <= peak <= 2,
        "counts": dict(sorted(order_counts.items())), "locked_after": sem.locked()}

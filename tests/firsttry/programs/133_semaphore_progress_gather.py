# description: Fetch every customer's orders with bounded concurrency and progress output
# value: {"c1": 3, "c2": 2, "c3": 1, "c4": 2, "c5": 0, "c6": 3, "peak_ok": true}
# logs: ["[ 1/6] c1   3 orders ###", "[ 2/6] c2   2 orders ##", "[ 3/6] c3   1 orders #", "[ 4/6] c4   2 orders ##", "[ 5/6] c5   0 orders ", "[ 6/6] c6   3 orders ###"]
import asyncio

customers = await tools.list_customers()
sem = asyncio.Semaphore(2)
in_flight = {"now": 0, "peak": 0}

async def fetch(c):
    async with sem:
        in_flight["now"] += 1
        in_flight["peak"] = max(in_flight["peak"], in_flight["now"])
        try:
            orders = await tools.list_orders(customer_id=c["id"])
        finally:
            in_flight["now"] -= 1
    return c["id"], orders

results = await asyncio.gather(*(fetch(c) for c in customers))
total = len(results)
for i, (cid, orders) in enumerate(results, start=1):
    print(f"[{i:>2}/{total}] {cid:<3} {len(orders):>2} orders {'#' * len(orders)}")
return {cid: len(orders) for cid, orders in results} | {"peak_ok": in_flight["peak"] <= 2}

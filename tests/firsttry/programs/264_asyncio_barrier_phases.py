# description: Run three regional workers in lock-step phases (load, price, report) with a barrier
# limitation: asyncio.Barrier is not in the asyncio facade
# value: {"lines": ["UK: 811.95 (4 orders)", "US: 1,430.99 (7 orders)", "NL: 0.00 (0 orders)"], "phases_in_order": true, "broken": false, "parties": 3}
import asyncio

REGIONS = {"UK": ["c1", "c3"], "US": ["c2", "c4", "c6"], "NL": ["c5"]}
barrier = asyncio.Barrier(len(REGIONS))
timeline: list[str] = []
totals: dict[str, float] = {}

async def worker(region: str, customer_ids: list[str]) -> str:
    orders = []
    for cid in customer_ids:
        orders += await tools.list_orders(customer_id=cid)
    timeline.append(f"load:{region}")
    await barrier.wait()
    rate = await tools.get_exchange_rate(base="EUR", quote="USD" if region == "US" else "GBP" if region == "UK" else "EUR")
    totals[region] = round(sum(o["total"] for o in orders) * rate, 2)
    timeline.append(f"price:{region}")
    index = await barrier.wait()
    if index == 0:
        timeline.append("report")
    return f"{region}: {totals[region]:,.2f} ({len(orders)} orders)"

lines = await asyncio.gather(*(worker(r, ids) for r, ids in REGIONS.items()))
phases = [t.split(":")[0] for t in timeline]
return {"lines": lines, "phases_in_order": phases == sorted(phases, key=["load", "price", "report"].index),
        "broken": barrier.broken, "parties": barrier.parties}

# description: Flag unusual order totals with z-scores
# value: {"mean": 207.29, "pstdev": 169.48, "outliers": ["o-1002"], "mode": "delivered", "multimode": ["c1", "c6"], "harmonic": 101.98, "median_high": 118.25}
import statistics
import asyncio

customers = await tools.list_customers()
all_orders = [o for batch in await asyncio.gather(*(tools.list_orders(customer_id=c["id"]) for c in customers)) for o in batch]
totals = [o["total"] for o in all_orders]
mu = statistics.mean(totals)
sigma = statistics.pstdev(totals)
z = {o["id"]: round((o["total"] - mu) / sigma, 2) for o in all_orders}
outliers = sorted((oid for oid, score in z.items() if abs(score) > 1.5), key=lambda oid: -abs(z[oid]))
statuses = [o["status"] for o in all_orders]
return {
    "mean": round(mu, 2),
    "pstdev": round(sigma, 2),
    "outliers": outliers,
    "mode": statistics.mode(statuses),
    "multimode": statistics.multimode([o["customer_id"] for o in all_orders]),
    "harmonic": round(statistics.harmonic_mean([t for t in totals if t > 0]), 2),
    "median_high": statistics.median_high(totals),
}

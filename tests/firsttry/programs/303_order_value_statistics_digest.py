# description: Produce a statistical digest of order values with a wrapped narrative summary
# value: {"stats": {"n": 10, "mean": 219.12, "median": 153.12, "stdev": 182.75, "iqr": [64.12, 380.24]}, "status": {"delivered": 4, "pending": 4, "shipped": 2, "cancelled": 1}, "top3": [["CB-05", 15], ["KB-01", 4], ["HS-07", 4]], "by_tier": {"enterprise": 270.04, "free": 89.0, "pro": 142.75}, "lines": 5, "short": "Across 11 orders (4 delivered, 4 pending, 2 \u2026"}
# logs: ["  Across 11 orders (4 delivered, 4 pending, 2 shipped, 1", "  cancelled), the typical order is worth \u20ac153.12 against a", "  mean of \u20ac219.12, so a few large orders pull the average", "  up. The best-selling item by units is CB-05 with 15 units.", "  Enterprise customers average \u20ac270.04 an order."]
import statistics
import textwrap
from collections import Counter

customers = await tools.list_customers()
orders = []
for c in customers:
    for o in await tools.list_orders(customer_id=c["id"]):
        orders.append({**o, "tier": c["tier"]})

totals = [o["total"] for o in orders if o["status"] != "cancelled"]
q1, q2, q3 = statistics.quantiles(totals, n=4)
stats = {
    "n": len(totals),
    "mean": round(statistics.mean(totals), 2),
    "median": round(statistics.median(totals), 2),
    "stdev": round(statistics.stdev(totals), 2),
    "iqr": [round(q1, 2), round(q3, 2)],
}
status_counts = Counter(o["status"] for o in orders)
sku_units = Counter()
for o in orders:
    for l in o["lines"]:
        sku_units[l["sku"]] += l["quantity"]
by_tier = {t: round(statistics.fmean(o["total"] for o in orders if o["tier"] == t), 2)
           for t in sorted({o["tier"] for o in orders})}

top_sku, top_units = sku_units.most_common(1)[0]
summary = (f"Across {len(orders)} orders ({', '.join(f'{n} {s}' for s, n in status_counts.most_common())}), "
           f"the typical order is worth €{stats['median']:,.2f} against a mean of €{stats['mean']:,.2f}, "
           f"so a few large orders pull the average up. The best-selling item by units is {top_sku} "
           f"with {top_units} units. Enterprise customers average €{by_tier.get('enterprise', 0):,.2f} an order.")
wrapped = textwrap.fill(summary, width=60, initial_indent="  ", subsequent_indent="  ")
print(wrapped)
return {"stats": stats, "status": dict(status_counts.most_common()), "top3": sku_units.most_common(3),
        "by_tier": by_tier, "lines": len(wrapped.splitlines()), "short": textwrap.shorten(summary, 50, placeholder=" …")}

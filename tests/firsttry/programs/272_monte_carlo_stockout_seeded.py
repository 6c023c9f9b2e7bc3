# description: Estimate two-week stock-out risk per product with a seeded Monte Carlo simulation
# value: {"risk": {"KB-01": {"p_stockout": 0.682, "median_left": -3.0, "p10_left": -7.0}, "MS-02": {"p_stockout": 1.0, "median_left": -28.0, "p10_left": -36.0}, "MN-27": {"p_stockout": 0.57, "median_left": -1.0, "p10_left": -5.0}, "HD-10": {"p_stockout": 0.113, "median_left": 7.0, "p10_left": -1.0}, "CB-05": {"p_stockout": 0.0, "median_left": 36.0, "p10_left": 24.1}, "LP-14": {"p_stockout": 0.835, "median_left": -2.0, "p10_left": -5.9}, "HS-07": {"p_stockout": 0.65, "median_left": -2.0, "p10_left": -6.0}}, "reorder": ["MS-02", "LP-14", "KB-01", "HS-07", "MN-27"]}
# logs: ["MS-02: 100.0% stock-out risk", "LP-14:  83.5% stock-out risk", "KB-01:  68.2% stock-out risk", "HS-07:  65.0% stock-out risk", "MN-27:  57.0% stock-out risk", "HD-10:  11.3% stock-out risk", "CB-05:   0.0% stock-out risk"]
import math
import random
import statistics

DAILY = {"KB-01": 1.2, "MS-02": 2.0, "MN-27": 0.5, "HD-10": 2.5, "CB-05": 6.0, "LP-14": 0.4, "HS-07": 0.8}
DAYS, RUNS = 14, 400
rng = random.Random(20240615)

def demand(rate: float) -> int:
    # Poisson sample by inversion
    l, k, p = math.exp(-rate), 0, 1.0
    while True:
        p *= rng.random()
        if p <= l:
            return k
        k += 1

risk = {}
for p in await tools.list_products():
    outs, leftovers = 0, []
    for _ in range(RUNS):
        stock = p["in_stock"]
        for _ in range(DAYS):
            stock -= demand(DAILY[p["sku"]])
        outs += stock < 0
        leftovers.append(stock)
    risk[p["sku"]] = {
        "p_stockout": round(outs / RUNS, 3),
        "median_left": statistics.median(leftovers),
        "p10_left": statistics.quantiles(leftovers, n=10)[0],
    }
ranked = sorted(risk, key=lambda s: -risk[s]["p_stockout"])
for sku in ranked:
    print(f"{sku}: {risk[sku]['p_stockout']:6.1%} stock-out risk")
return {"risk": risk, "reorder": [s for s in ranked if risk[s]["p_stockout"] > 0.2]}

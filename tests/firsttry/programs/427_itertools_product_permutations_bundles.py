# description: Find product bundles within a budget with itertools.product/combinations/permutations and cycle through couriers
# value: {"bundles": [["KB-01", "LP-14", 134.0], ["KB-01", "HD-10", 128.0], ["KB-01", "CB-05", 98.75], ["MS-02", "LP-14", 70.5]], "pairs": [["KB-01", "MS-02"], ["HD-10", "CB-05"], ["HD-10", "LP-14"], ["CB-05", "LP-14"]], "routes": ["N-S", "N-E", "S-N", "S-E", "E-N", "E-S"], "multi": 10, "assign": {"KB-01+LP-14": "DHL", "KB-01+HD-10": "UPS", "KB-01+CB-05": "DPD", "MS-02+LP-14": "DHL"}, "ids": [100, 105, 110, 115], "fill": ["-", "-", "-"], "perm_count": 42, "comb_count": 35}
from itertools import product, combinations, permutations, combinations_with_replacement, cycle, islice, repeat, count
import math

products = await tools.list_products()
by_cat: dict[str, list[dict]] = {}
for p in products:
    by_cat.setdefault(p["category"], []).append(p)

BUDGET = 200
bundles = []
for kb, acc in product(by_cat["peripherals"], by_cat["accessories"]):
    total = kb["price"] + acc["price"]
    if total <= BUDGET:
        bundles.append((kb["sku"], acc["sku"], round(total, 2)))
bundles.sort(key=lambda b: -b[2])

pairs = [(a["sku"], b["sku"]) for a, b in combinations(products, 2) if a["category"] == b["category"]]
routes = ["-".join(r) for r in permutations(["N", "S", "E"], 2)]
multi = len(list(combinations_with_replacement(range(4), 2)))
couriers = cycle(["DHL", "UPS", "DPD"])
assign = {b[0] + "+" + b[1]: c for b, c in zip(bundles, couriers)}
ids = list(islice(count(100, 5), 4))
fill = list(repeat("-", 3))
return {
    "bundles": bundles[:4],
    "pairs": pairs,
    "routes": routes,
    "multi": multi,
    "assign": dict(islice(assign.items(), 4)),
    "ids": ids,
    "fill": fill,
    "perm_count": math.perm(len(products), 2),
    "comb_count": math.comb(len(products), 3),
}

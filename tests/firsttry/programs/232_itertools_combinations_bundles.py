# description: Find product bundles under a budget and cross-sell pairs with itertools combinations and product
# value: {"count": 9, "top3": [[143.75, ["KB-01", "CB-05", "LP-14"]], [137.75, ["KB-01", "HD-10", "CB-05"]], [134.0, ["KB-01", "LP-14"]]], "cross": [["accessories", "audio"], ["accessories", "displays"], ["accessories", "peripherals"], ["audio", "displays"], ["audio", "peripherals"], ["displays", "peripherals"]], "sizes": [["S", "red"], ["S", "blue"], ["M", "red"], ["M", "blue"]], "pairs_total": [6, 20], "powerset_len": 8, "n_combos": 15, "isqrt": 12, "dist": 5.0, "fsum": 1.0}
from itertools import combinations, permutations, product, chain, starmap, groupby
import math
import operator

products = [p for p in await tools.list_products() if p["in_stock"] > 0]
budget = 150
bundles = []
for r in (2, 3):
    for combo in combinations(products, r):
        cost = sum(p["price"] for p in combo)
        if cost <= budget:
            bundles.append((round(cost, 2), tuple(p["sku"] for p in combo)))
bundles.sort(key=lambda b: (-b[0], b[1]))
cats = sorted({p["category"] for p in products})
cross = [(a, b) for a, b in permutations(cats, 2) if a < b]
sizes = list(product(["S", "M"], ["red", "blue"], repeat=1))
pairs_total = list(starmap(operator.mul, [(2, 3), (4, 5)]))
powerset = list(chain.from_iterable(combinations("abc", r) for r in range(4)))
return {"count": len(bundles), "top3": bundles[:3], "cross": cross, "sizes": sizes, "pairs_total": pairs_total, "powerset_len": len(powerset),
        "n_combos": math.comb(len(products), 2), "isqrt": math.isqrt(150), "dist": math.dist((0, 0), (3, 4)), "fsum": math.fsum([0.1] * 10)}

# description: Find product bundles of two or three items under a budget with itertools.combinations
# value: {"count": 5, "best": [[["KB-01", "CB-05"], 98.75], [["HD-10", "CB-05", "LP-14"], 93.75], [["HD-10", "LP-14"], 84.0]], "possible": 35, "grid": ["A0", "A1", "B0", "B1"]}
from itertools import combinations, product
from math import comb

products = await tools.list_products()
in_stock = [p for p in products if p["in_stock"] > 0]
budget = 100.0
bundles = [
    (tuple(p["sku"] for p in combo), round(sum(p["price"] for p in combo), 2))
    for r in (2, 3)
    for combo in combinations(in_stock, r)
    if sum(p["price"] for p in combo) <= budget
]
bundles.sort(key=lambda b: (-b[1], b[0]))
grid = [f"{a}{b}" for a, b in product("AB", range(2))]
return {"count": len(bundles), "best": bundles[:3], "possible": comb(len(in_stock), 2) + comb(len(in_stock), 3), "grid": grid}

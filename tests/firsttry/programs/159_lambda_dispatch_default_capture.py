# description: Build per-category pricing rules with lambdas and a dispatch table
# value: {"prices": {"KB-01": 80.1, "MS-02": 22.95, "MN-27": 265.99, "HD-10": 39.0, "CB-05": 9.75, "LP-14": 45.0, "HS-07": 126.65}, "stats": {"sum": 589.44, "avg": 84.21, "max": 265.99, "span": 256.24}, "late": [3, 3, 3], "early": [1, 2, 3], "compose": "KB"}
products = await tools.list_products()
discounts = {"peripherals": 0.10, "displays": 0.05, "audio": 0.15}
rules = {cat: (lambda price, d=d: round(price * (1 - d), 2)) for cat, d in discounts.items()}
late_binding = [lambda: d for d in (1, 2, 3)]
early_binding = [lambda d=d: d for d in (1, 2, 3)]
ops = {
    "sum": lambda xs: sum(xs),
    "avg": lambda xs: round(sum(xs) / len(xs), 2) if xs else 0,
    "max": max,
    "span": lambda xs: max(xs) - min(xs),
}
prices = {p["sku"]: rules.get(p["category"], lambda price: price)(p["price"]) for p in products}
return {
    "prices": prices,
    "stats": {name: fn(list(prices.values())) for name, fn in ops.items()},
    "late": [f() for f in late_binding],
    "early": [f() for f in early_binding],
    "compose": (lambda f, g: lambda x: f(g(x)))(str.upper, str.strip)("  kb  "),
}

# description: Align two forecasts and select products with zip_longest, chain.from_iterable, compress, starmap, tee and product
# value: {"aligned": [[33.5, 6.5], [35.0, 8.0], [36.5, 9.5], [null, 6.5], [null, 8.0]], "aligned_fill": [["a", "w"], ["b", "x"], ["-", "y"], ["-", "z"]], "flat": ["KB-01", "peripherals", "MS-02", "peripherals"], "in_stock": ["KB-01", "MN-27", "HD-10", "CB-05", "HS-07"], "values": [1246.0, 0.0, 1679.94, 1638.0, 1170.0, 135.0, 1341.0], "steps": [-1246.0, 1679.94, -41.94, -468.0, -1035.0, 1206.0], "ids": [1000, 1007, 1014, 1021], "rota": ["ann", "bob", "cy", "ann", "bob"], "pad": [0, 0, 0], "grid": ["S-S", "S-M", "M-S", "M-M"], "cheap_prefix": 2, "rest": ["MN-27", "HD-10", "CB-05", "LP-14", "HS-07"]}
from itertools import chain, compress, count, cycle, islice, product, repeat, starmap, takewhile, dropwhile, tee, zip_longest

short = await tools.forecast(city="Cairo", days=3)
long = await tools.forecast(city="Oslo", days=5)
aligned = [(a["high"] if a else None, b["high"]) for a, b in zip_longest(short, long)]
aligned_fill = list(zip_longest("ab", "wxyz", fillvalue="-"))
products = await tools.list_products()
flat = list(chain.from_iterable([p["sku"], p["category"]] for p in products[:2]))
in_stock = list(compress([p["sku"] for p in products], [p["in_stock"] > 5 for p in products]))
values = list(starmap(lambda price, n: round(price * n, 2), [(p["price"], p["in_stock"]) for p in products]))
a, b = tee(iter(values))
next(b)
steps = [round(y - x, 2) for x, y in zip(a, b)]
ids = list(islice(count(1000, 7), 4))
rota = list(islice(cycle(["ann", "bob", "cy"]), 5))
pad = list(repeat(0, 3))
grid = [f"{s}-{c}" for s, c in product(["S", "M"], repeat=2)]
cheap_prefix = list(takewhile(lambda p: p["price"] < 100, products))
rest = [p["sku"] for p in dropwhile(lambda p: p["price"] < 100, products)]
return {"aligned": aligned, "aligned_fill": aligned_fill, "flat": flat, "in_stock": in_stock, "values": values,
        "steps": steps, "ids": ids, "rota": rota, "pad": pad, "grid": grid,
        "cheap_prefix": len(cheap_prefix), "rest": rest}

# description: Build typed rows from whatever fields the product tool returns with make_dataclass
# limitation: dataclasses.make_dataclass is not in the dataclasses facade
# value: {"class": "ProductRow", "fields": ["sku", "name", "category", "price", "in_stock", "value"], "first": ["CB-05", "Braided cable", "accessories", 9.75, 120, 1170.0], "bands": {"CB-05": "low", "HD-10": "low", "HS-07": "high", "KB-01": "low", "LP-14": "low", "MN-27": "high", "MS-02": "low"}}
# logs: ["sku   | name                     | category    | price  | in_stock | value  ", "CB-05 | Braided cable            | accessories | 9.75   | 120      | 1170.0 ", "HD-10 | USB-C hub                | accessories | 39.0   | 42       | 1638.0 ", "HS-07 | Noise-cancelling headset | audio       | 149.0  | 9        | 1341.0 "]
from dataclasses import make_dataclass, fields, asdict, astuple

products = await tools.list_products()
sample = products[0]
Row = make_dataclass(
    "ProductRow",
    [(name, type(value)) for name, value in sample.items()] + [("value", float, 0.0)],
    namespace={"margin_band": lambda self: "high" if self.price > 100 else "low"},
    order=True,
)
rows = sorted(Row(**p, value=round(p["price"] * p["in_stock"], 2)) for p in products)
widths = {f.name: max(len(f.name), *(len(str(getattr(r, f.name))) for r in rows)) for f in fields(Row)}
header = " | ".join(f"{name:<{w}}" for name, w in widths.items())
print(header)
for r in rows[:3]:
    print(" | ".join(f"{str(v):<{widths[k]}}" for k, v in asdict(r).items()))
return {
    "class": Row.__name__,
    "fields": [f.name for f in fields(Row)],
    "first": astuple(rows[0]),
    "bands": {r.sku: r.margin_band() for r in rows},
}

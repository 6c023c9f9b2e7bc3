# description: Use collections.namedtuple rows with defaults for a stock sheet
# value: {"rows": [{"sku": "HD-10", "name": "USB-C hub", "stock": 42, "reorder": false}, {"sku": "CB-05", "name": "Braided cable", "stock": 120, "reorder": false}, {"sku": "LP-14", "name": "Laptop stand", "stock": 3, "reorder": true}, {"sku": "XX-00", "name": "Placeholder", "stock": 0, "reorder": true}], "fields": ["sku", "name", "stock", "reorder"], "defaults": {"reorder": false}, "total": 165, "first": "HD-10 USB-C hub", "as_tuple": ["XX-00", "Placeholder", 0, true]}
from collections import namedtuple

StockRow = namedtuple("StockRow", ["sku", "name", "stock", "reorder"], defaults=[False])
rows = [StockRow(p["sku"], p["name"], p["in_stock"]) for p in await tools.list_products(category="accessories")]
rows.append(StockRow._make(["XX-00", "Placeholder", 0, True]))
rows = [r._replace(reorder=r.stock < 10) for r in rows]
total = sum(r.stock for r in rows)
sku, name, *_ = rows[0]
return {
    "rows": [r._asdict() for r in rows],
    "fields": list(StockRow._fields),
    "defaults": StockRow._field_defaults,
    "total": total,
    "first": f"{sku} {name}",
    "as_tuple": list(rows[-1]),
}

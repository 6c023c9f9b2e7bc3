# description: Report product stock levels with namedtuples
# value: {"fields": ["sku", "name", "units", "reorder"], "reorder": ["MS-02", "LP-14"], "rows": [{"sku": "MS-02", "name": "Wireless mouse", "units": 0, "reorder": true}, {"sku": "LP-14", "name": "Laptop stand", "units": 3, "reorder": true}]}
# logs: ["2 products need reordering"]
from collections import namedtuple

StockRow = namedtuple("StockRow", ["sku", "name", "units", "reorder"])

products = await tools.list_products()
rows = []
for p in products:
    rows.append(StockRow(p["sku"], p["name"], p["in_stock"], p["in_stock"] < 5))

to_reorder = [r.sku for r in rows if r.reorder]
print(f"{len(to_reorder)} products need reordering")
return {
    "fields": list(StockRow._fields),
    "reorder": to_reorder,
    "rows": [r._asdict() for r in rows if r.reorder],
}

# description: Summarise products as namedtuples with defaults, _make, _fields and _replace
# value: {"restock": ["MS-02", "LP-14", "ZZ-00"], "cheapest": {"sku": "CB-05", "name": "Braided cable", "price": 9.75, "stock": 120, "flag": ""}, "rest": [9.75, 120, ""], "value": 8199.94}
# logs: ["('sku', 'name', 'price', 'stock', 'flag') {'flag': ''}", "Row(sku='MS-02', name='Wireless mouse', price=25.5, stock=0, flag='restock')"]
from collections import namedtuple

Row = namedtuple("Row", ["sku", "name", "price", "stock", "flag"], defaults=[""])

products = await tools.list_products()
rows = [Row(p["sku"], p["name"], p["price"], p["in_stock"]) for p in products]
rows.append(Row._make(["ZZ-00", "Gift card", 10.0, 99, "virtual"]))
rows = [r._replace(flag="restock") if r.stock < 5 else r for r in rows]
print(Row._fields, Row._field_defaults)
print(rows[1])
cheapest = min(rows, key=lambda r: r.price)
sku, name, *rest = cheapest
return {
    "restock": [r.sku for r in rows if r.flag],
    "cheapest": cheapest._asdict(),
    "rest": rest,
    "value": round(sum(r.price * r.stock for r in rows), 2),
}

# description: Dataclass with KW_ONLY sentinel, field(compare=False, repr=False), astuple and is_dataclass
# value: {"rows": [["CB-05", 120, 9.75, "Braided cable"], ["HD-10", 42, 39.0, "USB-C hub"], ["LP-14", 3, 45.0, "Laptop stand"]], "is_dc": [true, true, false], "field_names": ["sku", "units", "price", "note"]}
# logs: ["StockRow(sku='CB-05', units=120, price=9.75)"]
from dataclasses import dataclass, field, KW_ONLY, astuple, is_dataclass, fields

@dataclass(order=True)
class StockRow:
    sku: str
    units: int
    _: KW_ONLY
    price: float = 0.0
    note: str = field(default="", compare=False, repr=False)

products = await tools.list_products(category="accessories")
rows = sorted(StockRow(p["sku"], p["in_stock"], price=p["price"], note=p["name"]) for p in products)
print(rows[0])
return {
    "rows": [astuple(r) for r in rows],
    "is_dc": [is_dataclass(rows[0]), is_dataclass(StockRow), is_dataclass(3)],
    "field_names": [f.name for f in fields(StockRow)],
}

# description: Rank products with an order=True dataclass whose sort key ignores some fields, and use replace, astuple and fields
# value: {"order": ["CB-05", "HD-10", "KB-01", "HS-07", "MN-27", "LP-14", "MS-02"], "top": "Ranked(sku='CB-05', price=9.75, stock=120, tags=[])", "cheaper": ["CB-05", 8.78, 120, []], "lt": true, "max": "MS-02", "same": true, "fields": [["sort_key", true, false], ["sku", true, true], ["price", true, true], ["stock", false, true], ["tags", false, true]], "is_dc": [true, true, false], "asdict": {"sort_key": [-120, 8.78], "sku": "CB-05", "price": 8.78, "stock": 120, "tags": []}}
import dataclasses
from dataclasses import dataclass, field

@dataclass(order=True)
class Ranked:
    sort_key: tuple = field(init=False, repr=False)
    sku: str
    price: float
    stock: int = field(compare=False)
    tags: list = field(default_factory=list, compare=False)

    def __post_init__(self):
        self.sort_key = (-self.stock, self.price)

products = await tools.list_products()
ranked = sorted(Ranked(p["sku"], p["price"], p["in_stock"]) for p in products)
top = ranked[0]
cheaper = dataclasses.replace(top, price=round(top.price * 0.9, 2))
same = Ranked("X", 1.0, 5) == Ranked("X", 1.0, 5, ["other"])
return {
    "order": [r.sku for r in ranked], "top": repr(top), "cheaper": dataclasses.astuple(cheaper)[1:],
    "lt": ranked[0] < ranked[1], "max": max(ranked).sku, "same": same,
    "fields": [(f.name, f.compare, f.init) for f in dataclasses.fields(Ranked)],
    "is_dc": [dataclasses.is_dataclass(top), dataclasses.is_dataclass(Ranked), dataclasses.is_dataclass(1)],
    "asdict": dataclasses.asdict(cheaper),
}

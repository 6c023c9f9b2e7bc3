# description: Sort product dataclasses with operator.attrgetter
# value: {"by_cat_price": ["CB-05", "HD-10", "LP-14", "HS-07", "MN-27", "MS-02", "KB-01"], "top_value": [["MN-27", 1679.94], ["HD-10", 1638.0], ["HS-07", 1341.0]], "ends": ["MN-27", "MS-02"]}
from dataclasses import dataclass
from operator import attrgetter, itemgetter
import asyncio

@dataclass(frozen=True)
class Item:
    sku: str
    category: str
    price: float
    stock: int

    @property
    def value(self) -> float:
        return round(self.price * self.stock, 2)

raw = await tools.list_products()
stocks = await asyncio.gather(*(tools.get_stock(sku=p["sku"]) for p in raw))
items = [Item(p["sku"], p["category"], p["price"], s) for p, s in zip(raw, stocks)]
by_cat_price = sorted(items, key=attrgetter("category", "price"))
by_value = sorted(items, key=attrgetter("value"), reverse=True)
get_pair = itemgetter(0, -1)
return {
    "by_cat_price": [i.sku for i in by_cat_price],
    "top_value": [(i.sku, i.value) for i in by_value[:3]],
    "ends": [i.sku for i in get_pair(by_value)],
}

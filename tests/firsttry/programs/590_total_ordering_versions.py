# description: Order products by a total_ordering class comparing stock then price
# value: {"order": ["MS-02", "LP-14", "MN-27", "HS-07", "KB-01", "HD-10", "CB-05"], "ge": true, "max": "StockItem('CB-05', stock=120)", "unique": 7}
from functools import total_ordering

@total_ordering
class StockItem:
    __slots__ = ("sku", "stock", "price")

    def __init__(self, sku, stock, price):
        self.sku, self.stock, self.price = sku, stock, price

    def _key(self):
        return (self.stock, -self.price)

    def __eq__(self, other):
        if not isinstance(other, StockItem):
            return NotImplemented
        return self._key() == other._key()

    def __lt__(self, other):
        if not isinstance(other, StockItem):
            return NotImplemented
        return self._key() < other._key()

    def __hash__(self):
        return hash(self.sku)

    def __repr__(self):
        return f"StockItem({self.sku!r}, stock={self.stock})"

products = await tools.list_products()
items = [StockItem(p["sku"], p["in_stock"], p["price"]) for p in products]
ordered = sorted(items)
return {"order": [i.sku for i in ordered], "ge": items[0] >= items[1], "max": repr(max(items)), "unique": len(set(items))}

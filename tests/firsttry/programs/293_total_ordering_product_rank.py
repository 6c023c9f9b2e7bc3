# description: Rank products by availability then price using a comparable wrapper class
# value: {"order": ["CB-05", "HD-10", "LP-14", "KB-01", "HS-07", "MN-27", "MS-02"], "checks": {"lt": true, "le": true, "gt": true, "ge": true, "ne": true, "max": "Ranked('MS-02', price=25.50, stock=0)", "min": "Ranked('CB-05', price=9.75, stock=120)"}, "unique": 2}
# logs: ["Ranked('CB-05', price=9.75, stock=120)", "Ranked('HD-10', price=39.00, stock=42)", "Ranked('LP-14', price=45.00, stock=3)", "Ranked('KB-01', price=89.00, stock=14)", "Ranked('HS-07', price=149.00, stock=9)", "Ranked('MN-27', price=279.99, stock=6)", "Ranked('MS-02', price=25.50, stock=0)"]
from functools import total_ordering

@total_ordering
class Ranked:
    __slots__ = ("sku", "name", "price", "stock")

    def __init__(self, sku, name, price, stock):
        self.sku, self.name, self.price, self.stock = sku, name, price, stock

    @property
    def available(self) -> bool:
        return self.stock > 0

    def _key(self):
        return (not self.available, self.price, self.sku)

    def __eq__(self, other):
        if not isinstance(other, Ranked):
            return NotImplemented
        return self._key() == other._key()

    def __lt__(self, other):
        if not isinstance(other, Ranked):
            return NotImplemented
        return self._key() < other._key()

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        return f"{type(self).__name__}({self.sku!r}, price={self.price:.2f}, stock={self.stock})"

items = [Ranked(p["sku"], p["name"], p["price"], p["in_stock"]) for p in await tools.list_products()]
ranked = sorted(items)
a, b = ranked[0], ranked[-1]
checks = {"lt": a < b, "le": a <= b, "gt": b > a, "ge": a >= a, "ne": a != b, "max": repr(max(items)), "min": repr(min(items))}
dupes = {Ranked("X", "x", 1.0, 1), Ranked("X", "y", 1.0, 1), Ranked("X", "z", 2.0, 1)}
for r in ranked:
    print(repr(r))
return {"order": [r.sku for r in ranked], "checks": checks, "unique": len(dupes)}

# description: Model stock positions with __slots__ classes, validated properties and cached_property
# value: {"total": 7209.94, "again": 7209.94, "recomputed": 7337.44, "computed": 2, "errors": ["KB-01: negative quantity -1", "AttributeError", "unhashable"], "repr": "Position('MS-02', qty=5, price=25.5)", "labels": ["large", "small", "large", "large", "large", "small", "large"], "eq": true}
from functools import cached_property


class Position:
    __slots__ = ("sku", "_qty", "price")

    def __init__(self, sku, qty, price):
        self.sku = sku
        self.qty = qty
        self.price = price

    @property
    def qty(self):
        return self._qty

    @qty.setter
    def qty(self, value):
        if value < 0:
            raise ValueError(f"{self.sku}: negative quantity {value}")
        self._qty = value

    @property
    def value(self):
        return round(self.qty * self.price, 2)

    def __repr__(self):
        return f"Position({self.sku!r}, qty={self.qty}, price={self.price})"

    def __eq__(self, other):
        return isinstance(other, Position) and (self.sku, self.qty) == (other.sku, other.qty)

    __hash__ = None


class Portfolio:
    def __init__(self, positions):
        self.positions = positions
        self.computed = 0

    @cached_property
    def total(self):
        self.computed += 1
        return round(sum(p.value for p in self.positions), 2)

    @staticmethod
    def label(value):
        return "large" if value > 1000 else "small"


products = await tools.list_products()
positions = [Position(p["sku"], p["in_stock"], p["price"]) for p in products]
pf = Portfolio(positions)
first, again = pf.total, pf.total
errors = []
try:
    positions[0].qty = -1
except ValueError as e:
    errors.append(str(e))
try:
    positions[0].colour = "red"
except AttributeError as e:
    errors.append(type(e).__name__)
try:
    hash(positions[0])
except TypeError as e:
    errors.append("unhashable")
positions[1].qty += 5
del pf.total
return {"total": first, "again": again, "recomputed": pf.total, "computed": pf.computed, "errors": errors, "repr": repr(positions[1]),
        "labels": [Portfolio.label(p.value) for p in positions], "eq": Position("A", 1, 2) == Position("A", 1, 3)}

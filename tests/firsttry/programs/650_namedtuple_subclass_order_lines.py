# description: Price order lines with a namedtuple subclass that adds a total property
# value: {"lines": [{"sku": "MN-27", "qty": 1, "price": 279.99}, {"sku": "HD-10", "qty": 2, "price": 39.0}], "biggest": ["MN-27", 1, 279.99]}
# logs: ["1 x MN-27 = 279.99", "2 x HD-10 = 78.0"]
# limitation: a returned subclass of a namedtuple (or of tuple) is refused by design, as other built-in subclasses are; the refusal says to convert it with list(value)
from collections import namedtuple

class Line(namedtuple("Line", "sku qty price")):
    __slots__ = ()

    @property
    def total(self):
        return round(self.qty * self.price, 2)

    def __str__(self):
        return f"{self.qty} x {self.sku} = {self.total}"

order = await tools.get_order(order_id="o-1007")
lines = [Line(l["sku"], l["quantity"], l["unit_price"]) for l in order["lines"]]
for line in lines:
    print(line)
return {"lines": [line._asdict() for line in lines], "biggest": max(lines, key=lambda l: l.total)}

# description: Rank products by margin with ordered frozen dataclasses, InitVar, ClassVar and validation
# value: {"ranked": [["HS-07", 74.5], ["MN-27", 56.0], ["KB-01", 35.6]], "count": 9, "dedup": 1, "lt": false, "tuple": [3.9, "CB-05", 9.75, ["accessories"]]}
# logs: ["BAD: price must be positive", "Margin(sku='HS-07', price=149.0, tags=('audio',))"]
from dataclasses import dataclass, field, InitVar, astuple
from typing import ClassVar

@dataclass(order=True, frozen=True)
class Margin:
    sort_key: float = field(init=False, repr=False)
    sku: str
    price: float
    cost_ratio: InitVar[float] = 0.6
    count: ClassVar[int] = 0
    tags: tuple = field(default=(), compare=False)

    def __post_init__(self, cost_ratio):
        if self.price <= 0:
            raise ValueError(f"{self.sku}: price must be positive")
        object.__setattr__(self, "sort_key", round(self.price * (1 - cost_ratio), 2))
        Margin.count += 1

products = await tools.list_products()
ratios = {"audio": 0.5, "displays": 0.8}
margins = [Margin(p["sku"], p["price"], ratios.get(p["category"], 0.6), tags=(p["category"],))
           for p in products]
try:
    Margin("BAD", 0)
except ValueError as e:
    print(e)
ranked = sorted(margins, reverse=True)
seen = {Margin("KB-01", 89.0), Margin("KB-01", 89.0, tags=("x",))}
print(ranked[0])
return {
    "ranked": [(m.sku, m.sort_key) for m in ranked[:3]],
    "count": Margin.count,
    "dedup": len(seen),
    "lt": margins[0] < margins[1],
    "tuple": list(astuple(ranked[-1])),
}

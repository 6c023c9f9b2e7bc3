# description: Build an immutable inventory snapshot with slotted, frozen, ordered dataclasses
# value: {"order": ["CB-05", "HD-10", "KB-01", "HS-07", "MN-27", "LP-14", "MS-02"], "discounted": {"sort_key": [-120, "CB-05"], "sku": "CB-05", "name": "Braided cable", "price": 8.78, "units": 120}, "mutation": "FrozenInstanceError", "notes": {"empty": ["MS-02"]}, "has_dict": false}
# logs: ["7 items, value 7209.94"]
from dataclasses import dataclass, field, replace, asdict
from typing import Optional


@dataclass(frozen=True, slots=True, order=True)
class StockItem:
    sort_key: tuple = field(init=False, repr=False, compare=True)
    sku: str = field(compare=False)
    name: str = field(compare=False)
    price: float = field(compare=False)
    units: int = field(compare=False, default=0)

    def __post_init__(self):
        object.__setattr__(self, "sort_key", (-self.units, self.sku))

    @property
    def value(self) -> float:
        return round(self.price * self.units, 2)


@dataclass(slots=True)
class Inventory:
    items: list[StockItem] = field(default_factory=list)
    notes: dict[str, list[str]] = field(default_factory=dict)
    owner: Optional[str] = None

    def add(self, item: StockItem) -> None:
        self.items.append(item)
        if item.units == 0:
            self.notes.setdefault("empty", []).append(item.sku)

    def total(self) -> float:
        return round(sum(i.value for i in self.items), 2)


products = await tools.list_products()
inv = Inventory(owner="ops")
for p in products:
    inv.add(StockItem(sku=p["sku"], name=p["name"], price=p["price"], units=p["in_stock"]))

ranked = sorted(inv.items)
discounted = replace(ranked[0], price=round(ranked[0].price * 0.9, 2))
try:
    ranked[0].units = 5
    mutated = True
except AttributeError as e:
    mutated = type(e).__name__

print(f"{len(inv.items)} items, value {inv.total():.2f}")
return {
    "order": [i.sku for i in ranked],
    "discounted": asdict(discounted) | {"sort_key": list(discounted.sort_key)},
    "mutation": mutated,
    "notes": inv.notes,
    "has_dict": hasattr(inv, "__dict__"),
}

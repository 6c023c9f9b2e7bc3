# description: Rank products with frozen, ordered, slotted dataclasses and derive discounted copies
# value: {"order": ["CB-05", "MS-02", "HD-10", "LP-14", "KB-01", "HS-07", "MN-27"], "cheapest": "PriceTag(price=9.75, sku='CB-05', name='Braided cable', category='accessories')", "dearest": "27-inch monitor", "sale": [["CB-05", 8.78], ["HD-10", 35.1], ["LP-14", 40.5]], "original_unchanged": [9.75, 39.0, 45.0], "frozen": "FrozenInstanceError", "slotted": "TypeError", "has_dict": false, "unique": 2, "fields": ["price", "sku", "name", "category"], "lt": true}
# logs: ["PriceTag(price=9.75, sku='CB-05', name='Braided cable', category='accessories')"]
from dataclasses import dataclass, field, replace, FrozenInstanceError, fields


@dataclass(order=True, frozen=True, slots=True)
class PriceTag:
    price: float
    sku: str = field(compare=True)
    name: str = field(compare=False)
    category: str = field(compare=False, default="misc")

    def discounted(self, pct):
        return replace(self, price=round(self.price * (1 - pct / 100), 2))


products = await tools.list_products()
tags = [PriceTag(p["price"], p["sku"], p["name"], p["category"]) for p in products]
tags.sort()
cheapest, dearest = tags[0], tags[-1]
sale = [t.discounted(10) for t in tags if t.category == "accessories"]

try:
    cheapest.price = 0
    frozen = "mutable?!"
except FrozenInstanceError as e:
    frozen = type(e).__name__

try:
    cheapest.colour = "red"
    slotted = "no slots?!"
except (AttributeError, TypeError) as e:
    slotted = type(e).__name__

unique = {PriceTag(9.75, "CB-05", "A"), PriceTag(9.75, "CB-05", "B"), PriceTag(9.75, "CB-06", "A")}
print(cheapest)
return {
    "order": [t.sku for t in tags],
    "cheapest": repr(cheapest),
    "dearest": dearest.name,
    "sale": [(t.sku, t.price) for t in sale],
    "original_unchanged": [t.price for t in tags if t.category == "accessories"],
    "frozen": frozen,
    "slotted": slotted,
    "has_dict": hasattr(cheapest, "__dict__"),
    "unique": len(unique),
    "fields": [f.name for f in fields(PriceTag)],
    "lt": PriceTag(10, "A", "x") < PriceTag(10, "B", "y"),
}

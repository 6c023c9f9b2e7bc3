# description: Rank products by value with an ordered dataclass
# value: {"top": ["27-inch monitor (MN-27)", "USB-C hub (HD-10)", "Noise-cancelling headset (HS-07)"], "total_inventory_value": 7209.94, "empty": ["MS-02"]}
from dataclasses import dataclass, field


@dataclass(order=True)
class StockValue:
    value: float
    sku: str = field(compare=False)
    name: str = field(compare=False)
    units: int = field(compare=False, default=0)

    def __post_init__(self):
        self.value = round(self.value, 2)

    @property
    def label(self) -> str:
        return f"{self.name} ({self.sku})"


products = await tools.list_products()
values = sorted(
    (StockValue(p["price"] * p["in_stock"], p["sku"], p["name"], p["in_stock"]) for p in products),
    reverse=True,
)
return {
    "top": [v.label for v in values[:3]],
    "total_inventory_value": round(sum(v.value for v in values), 2),
    "empty": [v.sku for v in values if v.units == 0],
}

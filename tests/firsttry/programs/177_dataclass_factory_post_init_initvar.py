# description: Build order summaries with dataclasses using default_factory, __post_init__ and InitVar
# value: {"count": 8, "gross": {"o-1001": 141.9, "o-1002": 671.98, "o-1003": 225.6, "o-1004": 54.0, "o-1005": 84.6, "o-1009": 536.4, "o-1010": 321.6, "o-1011": 46.8}, "tags": {"o-1001": ["multi"], "o-1002": ["large"], "o-1003": ["multi"], "o-1005": ["multi"], "o-1009": ["large"], "o-1010": ["large", "multi"]}, "shared_default": [1, 0], "err": "bad quantity for KB-01", "first": {"order_id": "o-1001", "status": "delivered", "items": [{"sku": "KB-01", "quantity": 1, "unit_price": 89.0, "subtotal": 89.0}, {"sku": "CB-05", "quantity": 3, "unit_price": 9.75, "subtotal": 29.25}], "tags": ["multi"], "net": 118.25, "gross": 141.9}, "repr_has_tags": false}
# logs: ["LineItem(sku='KB-01', quantity=1, unit_price=89.0, subtotal=89.0)"]
from dataclasses import dataclass, field, InitVar, asdict


@dataclass
class LineItem:
    sku: str
    quantity: int
    unit_price: float
    subtotal: float = field(init=False)

    def __post_init__(self):
        if self.quantity <= 0:
            raise ValueError(f"bad quantity for {self.sku}")
        self.subtotal = round(self.quantity * self.unit_price, 2)


@dataclass
class OrderSummary:
    order_id: str
    status: str
    vat_rate: InitVar[float] = 0.2
    items: list[LineItem] = field(default_factory=list)
    tags: set = field(default_factory=set, repr=False)
    net: float = field(init=False, default=0.0)
    gross: float = field(init=False, default=0.0)

    def __post_init__(self, vat_rate):
        self.net = round(sum(i.subtotal for i in self.items), 2)
        self.gross = round(self.net * (1 + vat_rate), 2)
        if self.net > 200:
            self.tags.add("large")
        if len(self.items) > 1:
            self.tags.add("multi")


summaries = []
for cid in ("c1", "c2", "c6"):
    for o in await tools.list_orders(customer_id=cid):
        items = [LineItem(l["sku"], l["quantity"], l["unit_price"]) for l in o["lines"]]
        rate = 0.0 if o["status"] == "cancelled" else 0.2
        summaries.append(OrderSummary(o["id"], o["status"], rate, items))

a = OrderSummary("x", "pending")
b = OrderSummary("y", "pending")
a.items.append(LineItem("CB-05", 1, 9.75))
try:
    LineItem("KB-01", 0, 89.0)
    err = None
except ValueError as e:
    err = str(e)

first = summaries[0]
print(repr(first.items[0]))
d = asdict(first)
d["tags"] = sorted(d["tags"])
return {
    "count": len(summaries),
    "gross": {s.order_id: s.gross for s in summaries},
    "tags": {s.order_id: sorted(s.tags) for s in summaries if s.tags},
    "shared_default": (len(a.items), len(b.items)),
    "err": err,
    "first": d,
    "repr_has_tags": "tags=" in repr(first),
}

# description: Order summaries as dataclasses with kw_only, InitVar, ClassVar counters, field(repr=False) and __post_init__ validation
# value: {"reprs": ["OrderSummary(order_id='o-1001', customer='Ada Lovelace', lines=[LineSummary(sku='KB-01', qty=1, unit=89.0, subtotal=89.0), LineSummary(sku='CB-05', qty=3, unit=9.75, subtotal=29.25)], total=106.42)"], "totals": [106.42, 357.99, 241.2], "made": 3, "fields": ["order_id", "customer", "lines", "raw", "total"], "tuple": ["KB-01", 1, 89.0, 89.0], "err": "X: quantity must be positive", "positional": "rejected", "tagged": "Tagged(name='a', tags=('x',), weight=1)", "eq_ignores_raw": true}
from dataclasses import dataclass, field, InitVar, KW_ONLY, fields, astuple
from typing import ClassVar


@dataclass
class LineSummary:
    sku: str
    qty: int
    unit: float
    subtotal: float = field(init=False)

    def __post_init__(self):
        if self.qty <= 0:
            raise ValueError(f"{self.sku}: quantity must be positive")
        self.subtotal = round(self.qty * self.unit, 2)


@dataclass(kw_only=True)
class OrderSummary:
    made: ClassVar[int] = 0
    order_id: str
    customer: str
    lines: list[LineSummary] = field(default_factory=list)
    raw: dict = field(default_factory=dict, repr=False, compare=False)
    discount_pct: InitVar[float] = 0.0
    total: float = field(init=False, default=0.0)

    def __post_init__(self, discount_pct):
        OrderSummary.made += 1
        gross = sum(l.subtotal for l in self.lines)
        self.total = round(gross * (1 - discount_pct / 100), 2)


@dataclass
class Tagged:
    name: str
    _: KW_ONLY
    tags: tuple = ()
    weight: int = 1


summaries = []
for oid in ("o-1001", "o-1007", "o-1010"):
    o = await tools.get_order(order_id=oid)
    c = await tools.get_customer(customer_id=o["customer_id"])
    lines = [LineSummary(l["sku"], l["quantity"], l["unit_price"]) for l in o["lines"]]
    summaries.append(OrderSummary(order_id=oid, customer=c["name"], lines=lines, raw=o,
                                  discount_pct=10 if c["tier"] == "enterprise" else 0))
try:
    LineSummary("X", 0, 1.0)
    err = None
except ValueError as e:
    err = str(e)
try:
    OrderSummary("o-1", "x")
    positional = "accepted"
except TypeError:
    positional = "rejected"
t = Tagged("a", tags=("x",))
return {
    "reprs": [repr(s) for s in summaries[:1]],
    "totals": [s.total for s in summaries],
    "made": OrderSummary.made,
    "fields": [f.name for f in fields(OrderSummary)],
    "tuple": list(astuple(summaries[0].lines[0])),
    "err": err,
    "positional": positional,
    "tagged": repr(t),
    "eq_ignores_raw": OrderSummary(order_id="x", customer="y") == OrderSummary(order_id="x", customer="y", raw={"a": 1}),
}

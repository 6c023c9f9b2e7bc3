# description: Plan shipments with dataclass defaults, frozen records, ordering and replace
# value: {"as_dict": {"carrier": "DHL", "parcels": [{"weight": 2.25, "order_id": "o-1009"}, {"weight": 3.0, "order_id": "o-1010"}, {"weight": 0.75, "order_id": "o-1011"}], "notes": {}}, "heaviest": [3.0, "o-1010"], "lighter": {"weight": 0.5, "order_id": "o-1010"}, "sorted": ["o-1011", "o-1009", "o-1010"], "frozen_error": "FrozenInstanceError", "independent_defaults": true, "field_names": ["carrier", "parcels", "notes"], "equal": true, "repr": "Parcel(weight=0.5, order_id='o-1010')"}
from dataclasses import dataclass, field, asdict, replace, astuple, fields

@dataclass(frozen=True, order=True)
class Parcel:
    weight: float
    order_id: str = field(compare=False)

@dataclass
class Shipment:
    carrier: str
    parcels: list = field(default_factory=list)
    notes: dict = field(default_factory=dict)

    def add(self, parcel):
        self.parcels.append(parcel)

    @property
    def weight(self):
        return round(sum(p.weight for p in self.parcels), 2)

orders = await tools.list_orders(customer_id="c6")
ship = Shipment("DHL")
for o in orders:
    ship.add(Parcel(weight=round(sum(l["quantity"] for l in o["lines"]) * 0.75, 2), order_id=o["id"]))
heaviest = max(ship.parcels)
lighter = replace(heaviest, weight=0.5)
try:
    heaviest.weight = 1
    frozen_error = None
except Exception as e:
    frozen_error = type(e).__name__
other = Shipment("UPS")
other.notes["fragile"] = True
return {
    "as_dict": asdict(ship),
    "heaviest": astuple(heaviest),
    "lighter": asdict(lighter),
    "sorted": [p.order_id for p in sorted(ship.parcels)],
    "frozen_error": frozen_error,
    "independent_defaults": ship.notes == {} and other.notes == {"fragile": True},
    "field_names": [f.name for f in fields(Shipment)],
    "equal": Parcel(1.0, "a") == Parcel(1.0, "b"),
    "repr": repr(lighter),
}

# description: Model parcels as dataclasses and convert them with asdict for the tool call
# value: {"parcels": 3, "weight": 6.25, "cost": 15.31}
from dataclasses import dataclass, asdict, field

@dataclass
class Box:
    weight_kg: float
    length_cm: int = 30
    width_cm: int = 20
    height_cm: int = 10
    fragile: bool = field(default=False)

boxes = [Box(1.5), Box(0.75, fragile=True), Box(4.0, 60, 40, 30)]
s = await tools.create_shipment(
    order_id="o-1008",
    address={"name": "Katherine Johnson", "street": "1 NASA Drive", "city": "Hampton", "postcode": "23666", "country": "US"},
    parcels=[asdict(b) for b in boxes],
)
return {"parcels": s["parcels"], "weight": s["total_weight_kg"], "cost": s["cost"]}

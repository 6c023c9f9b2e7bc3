# description: Build a shipment from dataclasses converted with asdict
# value: {"id": "SH-001", "speed": "express", "parcels": 2, "total_weight_kg": 3.5, "cost": 20.14, "eta_days": 2, "insured": true}
from dataclasses import dataclass, asdict, field

@dataclass
class Addr:
    name: str
    street: str
    city: str
    postcode: str
    country: str

@dataclass
class Box:
    weight_kg: float
    length_cm: int
    width_cm: int
    height_cm: int
    fragile: bool = False

address = Addr("Ada Lovelace", "12 St James's Square", "London", "SW1Y 4JH", "UK")
boxes = [Box(2.5, 40, 30, 20, True), Box(1.0, 20, 20, 10)]
shipment = await tools.create_shipment(
    order_id="o-1003", address=asdict(address), parcels=[asdict(b) for b in boxes],
    speed="express", insured=True,
)
return {k: shipment[k] for k in ("id", "speed", "parcels", "total_weight_kg", "cost", "eta_days", "insured")}

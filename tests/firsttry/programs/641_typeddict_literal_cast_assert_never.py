# description: Build typed shipment requests with TypedDict, Literal, cast and assert_never
# value: {"shipment": {"id": "SH-001", "order_id": "o-1003", "speed": "express", "parcels": 1, "total_weight_kg": 1.2, "cost": 13.5, "eta_days": 2, "insured": false}, "promised": 2, "req": {"order_id": "o-1003", "speed": "express"}, "ok": true, "parcel_type": "dict"}
from typing import Literal, TypedDict, NotRequired, Required, cast, assert_never, TYPE_CHECKING, Final, TypeAlias

Speed: TypeAlias = Literal["standard", "express", "overnight"]
MAX_KG: Final = 20.0

class Parcel(TypedDict, total=False):
    weight_kg: Required[float]
    length_cm: int
    width_cm: int
    height_cm: int
    fragile: bool

class Request(TypedDict):
    order_id: str
    speed: Speed
    note: NotRequired[str]

def speed_for(total: float) -> Speed:
    return "overnight" if total > 500 else "express" if total > 100 else "standard"

def days(speed: Speed) -> int:
    match speed:
        case "standard":
            return 5
        case "express":
            return 2
        case "overnight":
            return 1
        case _ as unreachable:
            assert_never(unreachable)

order = await tools.get_order(order_id="o-1003")
customer = await tools.get_customer(customer_id=order["customer_id"])
req: Request = {"order_id": order["id"], "speed": speed_for(order["total"])}
parcel = Parcel(weight_kg=1.2, length_cm=30, width_cm=20, height_cm=10, fragile=True)
address = cast(dict, {k: customer["address"][k] for k in ("street", "city", "postcode", "country")})
address["name"] = customer["name"]
if TYPE_CHECKING:
    reveal = 1
shipment = await tools.create_shipment(order_id=req["order_id"], address=address,
                                       parcels=[parcel], speed=req["speed"])
return {"shipment": shipment, "promised": days(req["speed"]), "req": req, "ok": parcel["weight_kg"] < MAX_KG,
        "parcel_type": type(parcel).__name__}

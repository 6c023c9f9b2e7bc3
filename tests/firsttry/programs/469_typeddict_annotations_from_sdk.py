# description: Declare the SDK's TypedDicts locally for type hints and build arguments with them
# value: [-7.14, 8.88, 5]
from typing import TypedDict, NotRequired

class Parcel(TypedDict):
    weight_kg: float
    length_cm: int
    width_cm: int
    height_cm: int
    fragile: NotRequired[bool]

class PriceChange(TypedDict):
    sku: str
    new_price: float

box: Parcel = Parcel(weight_kg=3.5, length_cm=60, width_cm=40, height_cm=40)
changes: list[PriceChange] = [PriceChange(sku="MN-27", new_price=259.99)]
priced = await tools.update_prices(changes=changes)
shipment = await tools.create_shipment(order_id="o-1003", address={"name": "Ada", "street": "12 St James's Square", "city": "London", "postcode": "SW1Y 4JH", "country": "UK"}, parcels=[box])
return [priced[0]["change_pct"], shipment["cost"], shipment["eta_days"]]

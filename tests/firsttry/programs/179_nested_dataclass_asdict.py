# description: Export a customer with orders as nested dataclasses via asdict and astuple
# value: {"profile": {"id": "c6", "name": "Margaret Hamilton", "address": {"street": "77 Massachusetts Ave", "city": "Boston", "postcode": "02139", "country": "US"}, "orders": [{"id": "o-1009", "status": "changed", "lines": [{"sku": "HS-07", "quantity": 3}]}, {"id": "o-1010", "status": "pending", "lines": [{"sku": "LP-14", "quantity": 2}, {"sku": "KB-01", "quantity": 2}]}, {"id": "o-1011", "status": "delivered", "lines": [{"sku": "HD-10", "quantity": 1}]}], "meta": {"billing": {"street": "77 Massachusetts Ave", "city": "Boston", "postcode": "02139", "country": "US"}, "shipping": null}}, "flat": ["o-1009", "shipped", [["HS-07", 3]]], "eq": true}
# logs: ["shipped"]
from dataclasses import dataclass, field, asdict, astuple, is_dataclass
from typing import Optional


@dataclass
class Address:
    street: str
    city: str
    postcode: str
    country: str


@dataclass
class Line:
    sku: str
    quantity: int


@dataclass
class Order:
    id: str
    status: str
    lines: list[Line] = field(default_factory=list)


@dataclass
class Profile:
    id: str
    name: str
    address: Address
    orders: list[Order] = field(default_factory=list)
    meta: dict[str, Optional[Address]] = field(default_factory=dict)


c = await tools.get_customer(customer_id="c6")
orders = await tools.list_orders(customer_id="c6")
profile = Profile(
    c["id"],
    c["name"],
    Address(**c["address"]),
    [Order(o["id"], o["status"], [Line(l["sku"], l["quantity"]) for l in o["lines"]]) for o in orders],
    {"billing": Address(**c["address"]), "shipping": None},
)
data = asdict(profile)
flat = astuple(profile.orders[0])
assert data["orders"][0]["lines"][0] == {"sku": "HS-07", "quantity": 3}
assert isinstance(data["address"], dict) and is_dataclass(profile.address) and not is_dataclass(data)
data["orders"][0]["status"] = "changed"
print(profile.orders[0].status)
return {"profile": data, "flat": flat, "eq": Address(**c["address"]) == profile.address}

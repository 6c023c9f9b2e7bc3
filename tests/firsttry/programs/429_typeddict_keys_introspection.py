# description: Check that returned customers have every key of a TypedDict, reading its __annotations__ and __required_keys__
# limitation: reading a class's __annotations__ is refused as a dunder read
# value: {"keys": ["id", "name", "email", "tier", "address"], "missing": {}}
from typing import TypedDict


class AddressRow(TypedDict):
    street: str
    city: str
    postcode: str
    country: str


class CustomerRow(TypedDict):
    id: str
    name: str
    email: str
    tier: str
    address: AddressRow


missing = {}
for c in await tools.list_customers():
    gaps = [k for k in CustomerRow.__annotations__ if k not in c]
    gaps += [f"address.{k}" for k in AddressRow.__annotations__ if k not in c["address"]]
    if gaps:
        missing[c["id"]] = gaps
return {"keys": list(CustomerRow.__annotations__), "missing": missing}

# description: Nested SimpleNamespace built from a customer, equality, repr and vars
# value: {"city": "HAMPTON", "eq": false, "addr_repr": "namespace(street='1 NASA Drive', city='HAMPTON', postcode='23666', country='US')", "keys": ["address", "email", "id", "name", "signup_date", "tags", "tier"]}
from types import SimpleNamespace

def to_ns(value):
    if isinstance(value, dict):
        return SimpleNamespace(**{k: to_ns(v) for k, v in value.items()})
    if isinstance(value, list):
        return [to_ns(v) for v in value]
    return value

c = to_ns(await tools.get_customer(customer_id="c4"))
same = to_ns(await tools.get_customer(customer_id="c4"))
c.address.city = c.address.city.upper()
return {"city": c.address.city, "eq": c == same, "addr_repr": repr(c.address),
        "keys": sorted(vars(c))}

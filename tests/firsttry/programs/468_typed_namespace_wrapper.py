# description: Wrap dict results in SimpleNamespace for attribute access, as the model prefers
# value: {"who": "Katherine Johnson (Hampton, US)", "skus": ["CB-05", "HD-10", "MN-27"]}
from types import SimpleNamespace

def ns(value):
    if isinstance(value, dict):
        return SimpleNamespace(**{k: ns(v) for k, v in value.items()})
    if isinstance(value, list):
        return [ns(v) for v in value]
    return value

customer = ns(await tools.get_customer(customer_id="c4"))
orders = ns(await tools.list_orders(customer_id=customer.id))
return {
    "who": f"{customer.name} ({customer.address.city}, {customer.address.country})",
    "skus": sorted({line.sku for o in orders for line in o.lines}),
}

# description: Flatten nested customer records into dotted keys
# value: {"customer_keys": ["address.city", "address.country", "address.postcode", "address.street", "email", "id"], "postcode": "SW1Y 4JH", "line1": {"order.lines.1.sku": "HD-10", "order.lines.1.name": "USB-C hub", "order.lines.1.quantity": 1, "order.lines.1.unit_price": 39.0}, "n": 14}
def flatten(obj, prefix: str = "") -> dict:
    out = {}
    if isinstance(obj, dict):
        for k, v in obj.items():
            out.update(flatten(v, f"{prefix}{k}."))
    elif isinstance(obj, list):
        if not obj:
            out[prefix.rstrip(".")] = "[]"
        for i, v in enumerate(obj):
            out.update(flatten(v, f"{prefix}{i}."))
    else:
        out[prefix.rstrip(".")] = obj
    return out

c = await tools.get_customer(customer_id="c1")
order = await tools.get_order(order_id="o-1003")
flat_c = flatten(c)
flat_o = flatten({"order": order})
return {
    "customer_keys": sorted(flat_c)[:6],
    "postcode": flat_c["address.postcode"],
    "line1": {k: v for k, v in flat_o.items() if k.startswith("order.lines.1.")},
    "n": len(flat_o),
}

# description: Give tool results attribute-style access with an AttrDict helper
# value: {"name": "Grace Hopper", "city": "Arlington", "note": "checked", "totals": [45.0, 70.5], "missing": "default", "has": true}
# limitation: a class cannot define __getattr__ or __setattr__ (refused by design)
class AttrDict(dict):
    def __getattr__(self, name):
        try:
            value = self[name]
        except KeyError:
            raise AttributeError(name) from None
        if isinstance(value, dict):
            return AttrDict(value)
        return value

    def __setattr__(self, name, value):
        self[name] = value


c = AttrDict(await tools.get_customer(customer_id="c2"))
c.note = "checked"
orders = [AttrDict(o) for o in await tools.list_orders(customer_id=c.id)]
return {"name": c.name, "city": c.address.city, "note": c["note"], "totals": [o.total for o in orders],
        "missing": getattr(c, "nope", "default"), "has": hasattr(c, "tier")}

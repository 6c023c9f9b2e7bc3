# description: Compare order value objects with total_ordering and cached_property, render with singledispatch
# limitation: functools.singledispatch is not in the functools facade
# value: {"top": "o-1002: 559.98; o-1009: 447.00; o-1007: 357.99", "ge": true, "le": true, "max": "OrderValue('o-1002', net=559.98)", "unique": 11, "float": "3.1", "other": "<dict>"}
from functools import total_ordering, cached_property, singledispatch
from dataclasses import dataclass


@total_ordering
class OrderValue:
    def __init__(self, order: dict):
        self.order = order

    @cached_property
    def net(self) -> float:
        return round(sum(l["quantity"] * l["unit_price"] for l in self.order["lines"]), 2)

    def __eq__(self, other):
        if not isinstance(other, OrderValue):
            return NotImplemented
        return self.net == other.net

    def __lt__(self, other):
        if not isinstance(other, OrderValue):
            return NotImplemented
        return self.net < other.net

    def __hash__(self):
        return hash(self.order["id"])

    def __repr__(self):
        return f"OrderValue({self.order['id']!r}, net={self.net})"


@singledispatch
def render(obj) -> str:
    return f"<{type(obj).__name__}>"


@render.register
def _(obj: OrderValue) -> str:
    return f"{obj.order['id']}: {obj.net:,.2f}"


@render.register(list)
def _(obj) -> str:
    return "; ".join(render(x) for x in obj)


@render.register(float)
def _(obj) -> str:
    return f"{obj:.1f}"


ids = [f"o-10{n:02d}" for n in range(1, 12)]
orders = [await tools.get_order(order_id=i) for i in ids]
values = [OrderValue(o) for o in orders]
ranked = sorted(values, reverse=True)
top = ranked[:3]
return {
    "top": render(top),
    "ge": ranked[0] >= ranked[1],
    "le": ranked[-1] <= ranked[-2],
    "max": repr(max(values)),
    "unique": len(set(values)),
    "float": render(3.14159),
    "other": render({"x": 1}),
}

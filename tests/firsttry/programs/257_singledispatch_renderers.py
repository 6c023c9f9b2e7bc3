# description: Render a mixed order summary to text with single-dispatch formatters
# limitation: functools.singledispatch is not in the functools facade
# value: {"lines": ["customer: Ada Lovelace", "placed: 14 Jun 2024", "total: \u20ac188.00", "lines:", "    1 x Noise-cancelling headset", "    1 x USB-C hub", "tracking: \u2014", "weight_kg: 1.25", "flags: True", "  3"], "dispatch_int": "7", "registry": 9}
# logs: ["customer: Ada Lovelace", "placed: 14 Jun 2024", "total: \u20ac188.00", "lines:", "    1 x Noise-cancelling headset", "    1 x USB-C hub", "tracking: \u2014", "weight_kg: 1.25", "flags: True", "  3"]
from datetime import date
from decimal import Decimal
from functools import singledispatch

@singledispatch
def render(value: object, indent: int = 0) -> str:
    return f"{' ' * indent}{value!r}"

@render.register
def _(value: str, indent: int = 0) -> str:
    return f"{' ' * indent}{value}"

@render.register
def _(value: float, indent: int = 0) -> str:
    return f"{' ' * indent}{value:,.2f}"

@render.register
def _(value: Decimal, indent: int = 0) -> str:
    return f"{' ' * indent}€{value:,.2f}"

@render.register
def _(value: date, indent: int = 0) -> str:
    return f"{' ' * indent}{value:%d %b %Y}"

@render.register(type(None))
def _(value: None, indent: int = 0) -> str:
    return f"{' ' * indent}—"

@render.register(list)
@render.register(tuple)
def _(value, indent: int = 0) -> str:
    return "\n".join(render(v, indent + 2) for v in value)

@render.register
def _(value: dict, indent: int = 0) -> str:
    lines = []
    for k, v in value.items():
        if isinstance(v, (dict, list)):
            lines.append(f"{' ' * indent}{k}:")
            lines.append(render(v, indent + 2))
        else:
            lines.append(f"{' ' * indent}{k}: {render(v).strip()}")
    return "\n".join(lines)

order = await tools.get_order(order_id="o-1003")
customer = await tools.get_customer(customer_id=order["customer_id"])
summary = {
    "customer": customer["name"],
    "placed": date.fromisoformat(order["created"]),
    "total": Decimal(str(order["total"])),
    "lines": [f"{l['quantity']} x {l['name']}" for l in order["lines"]],
    "tracking": None,
    "weight_kg": 1.25,
    "flags": (True, 3),
}
text = render(summary)
print(text)
return {"lines": text.splitlines(), "dispatch_int": render(7), "registry": len(render.registry)}

# description: Validate tool results against annotated record types read with typing introspection
# limitation: typing.get_type_hints / get_origin / get_args are not in the typing facade
# value: {"fields": ["id", "status", "total", "items"], "report": {"o-1001": "valid", "o-1002": "valid", "o-1003": "valid", "x-1": ["x-1.status: 'lost' not in ('pending', 'shipped', 'delivered', 'cancelled')", "x-1.total: must be positive", "x-1.items[1]: expected str, got int"], "7": ["7.id: expected str, got int", "7.items: expected list"]}, "none": null}
from typing import Annotated, Literal, TypedDict, get_args, get_origin, get_type_hints, overload

class Positive:
    def __repr__(self) -> str:
        return "Positive()"

class OrderRow(TypedDict):
    id: str
    status: Literal["pending", "shipped", "delivered", "cancelled"]
    total: Annotated[float, Positive()]
    items: list[str]

def check(value: object, hint: object, path: str) -> list[str]:
    origin = get_origin(hint)
    if origin is Annotated:
        base, *meta = get_args(hint)
        errors = check(value, base, path)
        if any(isinstance(m, Positive) for m in meta) and isinstance(value, (int, float)) and value <= 0:
            errors.append(f"{path}: must be positive")
        return errors
    if origin is Literal:
        return [] if value in get_args(hint) else [f"{path}: {value!r} not in {get_args(hint)}"]
    if origin is list:
        (item,) = get_args(hint)
        if not isinstance(value, list):
            return [f"{path}: expected list"]
        return [e for i, v in enumerate(value) for e in check(v, item, f"{path}[{i}]")]
    if isinstance(hint, type) and not isinstance(value, hint):
        return [f"{path}: expected {hint.__name__}, got {type(value).__name__}"]
    return []

@overload
def as_row(order: dict) -> OrderRow: ...
@overload
def as_row(order: None) -> None: ...
def as_row(order):
    if order is None:
        return None
    return {"id": order["id"], "status": order["status"], "total": order["total"],
            "items": [l["sku"] for l in order["lines"]]}

hints = get_type_hints(OrderRow, include_extras=True)
orders = await tools.list_orders(customer_id="c1")
rows = [as_row(o) for o in orders] + [
    {"id": "x-1", "status": "lost", "total": -5.0, "items": ["A", 3]},
    {"id": 7, "status": "pending", "total": 1.0, "items": "KB-01"},
]
report = {}
for row in rows:
    problems = [e for key, hint in hints.items() for e in check(row.get(key), hint, f"{row['id']}.{key}")]
    report[str(row["id"])] = problems or "valid"
return {"fields": list(hints), "report": report, "none": as_row(None)}

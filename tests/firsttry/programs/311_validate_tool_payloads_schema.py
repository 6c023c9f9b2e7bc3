# description: Validate tool payloads against a hand-written schema before trusting them
# value: {"good": [], "bad": [{"path": "$.id", "expected": "present", "got": "missing"}, {"path": "$.status", "expected": "pending|shipped|delivered|cancelled", "got": "'lost'"}, {"path": "$.total", "expected": "int/float", "got": "str"}, {"path": "$.lines[0].sku", "expected": "str", "got": "int"}, {"path": "$.lines[0].quantity", "expected": "int", "got": "bool"}, {"path": "$.lines[0].unit_price", "expected": "present", "got": "missing"}], "not_object": [{"path": "$", "expected": "object", "got": "list"}]}
# logs: ["$.id                   expected present                              got missing", "$.status               expected pending|shipped|delivered|cancelled  got 'lost'", "$.total                expected int/float                            got str", "$.lines[0].sku         expected str                                  got int", "$.lines[0].quantity    expected int                                  got bool", "$.lines[0].unit_price  expected present                              got missing"]
from typing import TypedDict, Any

class FieldError(TypedDict):
    path: str
    expected: str
    got: str

SCHEMA = {
    "id": str,
    "status": ("pending", "shipped", "delivered", "cancelled"),
    "total": (int, float),
    "lines": [{"sku": str, "quantity": int, "unit_price": (int, float)}],
}

def check(value: Any, spec: Any, path: str = "$") -> list[FieldError]:
    errs: list[FieldError] = []
    if isinstance(spec, dict):
        if not isinstance(value, dict):
            return [FieldError(path=path, expected="object", got=type(value).__name__)]
        for key, sub in spec.items():
            if key not in value:
                errs.append(FieldError(path=f"{path}.{key}", expected="present", got="missing"))
            else:
                errs += check(value[key], sub, f"{path}.{key}")
    elif isinstance(spec, list):
        if not isinstance(value, list):
            return [FieldError(path=path, expected="array", got=type(value).__name__)]
        for i, item in enumerate(value):
            errs += check(item, spec[0], f"{path}[{i}]")
    elif isinstance(spec, tuple) and all(isinstance(s, str) for s in spec):
        if value not in spec:
            errs.append(FieldError(path=path, expected="|".join(spec), got=repr(value)))
    else:
        types = spec if isinstance(spec, tuple) else (spec,)
        if isinstance(value, bool) or not isinstance(value, types):
            errs.append(FieldError(path=path, expected="/".join(t.__name__ for t in types), got=type(value).__name__))
    return errs

order = await tools.get_order(order_id="o-1007")
broken = {**order, "status": "lost", "total": "279.99", "lines": [{"sku": 7, "quantity": True}]}
del broken["id"]
good_errors = check(order, SCHEMA)
bad_errors = check(broken, SCHEMA)
for e in bad_errors:
    print(f"{e['path']:<22} expected {e['expected']:<36} got {e['got']}")
return {"good": good_errors, "bad": bad_errors, "not_object": check([1], SCHEMA)}

# description: Collect every numeric leaf of an order, testing the built-in number types
# value: {"lines[0].quantity": 1, "lines[0].unit_price": 89.0, "lines[1].quantity": 3, "lines[1].unit_price": 9.75, "total": 118.25}
from decimal import Decimal

def numeric_leaves(value, path=""):
    if isinstance(value, bool):
        return
    if isinstance(value, (int, float, Decimal)):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from numeric_leaves(item, f"{path}.{key}" if path else key)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from numeric_leaves(item, f"{path}[{i}]")

order = await tools.get_order(order_id="o-1001")
return dict(numeric_leaves(order))

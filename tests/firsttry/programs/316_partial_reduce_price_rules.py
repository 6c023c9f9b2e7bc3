# description: Apply a chain of pricing rules to the catalogue using composed functions
# value: {"prices": {"KB-01": 80.0, "MS-02": 23.0, "MN-27": 266, "HD-10": 31.2, "CB-05": 7.8, "LP-14": 36.0, "HS-07": 149.0}, "savings": {"KB-01": 9.0, "MS-02": 2.5, "MN-27": 13.99, "HD-10": 7.8, "CB-05": 1.95, "LP-14": 9.0, "HS-07": 0.0}, "stock_value_delta": 798.54, "product": 11430720, "partial_args": [10], "func_name": "discount"}
# logs: ["KB-01    89.00 ->   80.00", "MS-02    25.50 ->   23.00", "MN-27   279.99 ->  266.00", "HD-10    39.00 ->   31.20", "CB-05     9.75 ->    7.80", "LP-14    45.00 ->   36.00", "HS-07   149.00 ->  149.00"]
from functools import partial, reduce
import operator

def discount(pct, price):
    return price * (1 - pct / 100)

def floor_at(minimum, price):
    return max(minimum, price)

def round_to(step, price):
    return round(round(price / step) * step, 2)

def compose(*fns):
    return reduce(lambda f, g: lambda x: g(f(x)), fns, lambda x: x)

RULES = {
    "peripherals": compose(partial(discount, 10), partial(round_to, 0.5)),
    "displays": compose(partial(discount, 5), partial(floor_at, 250.0), partial(round_to, 1)),
    "accessories": compose(partial(discount, 20), partial(floor_at, 5.0), partial(round_to, 0.05)),
}
identity = compose()

products = await tools.list_products()
repriced = {p["sku"]: RULES.get(p["category"], identity)(p["price"]) for p in products}
savings = {sku: round(p["price"] - repriced[sku], 2) for p in products for sku in [p["sku"]]}
total_before = reduce(operator.add, (p["price"] * p["in_stock"] for p in products))
total_after = reduce(operator.add, (repriced[p["sku"]] * p["in_stock"] for p in products), 0.0)
for p in products:
    print(f"{p['sku']}  {p['price']:>7.2f} -> {repriced[p['sku']]:>7.2f}")
product_of_stock = reduce(operator.mul, (p["in_stock"] for p in products if p["in_stock"]), 1)
return {"prices": repriced, "savings": savings, "stock_value_delta": round(total_before - total_after, 2),
        "product": product_of_stock, "partial_args": list(partial(discount, 10).args),
        "func_name": partial(discount, 10).func.__name__}

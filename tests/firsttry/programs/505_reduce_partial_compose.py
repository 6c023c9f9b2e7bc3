# description: Compose price adjustments with functools.reduce and partial, and inspect the partial objects
# value: {"prices": {"HD-10": 37.6, "CB-05": 11.28, "LP-14": 43.0}, "usd_total": 99.23, "longest": "Braided cable", "merged": {"a": 3, "b": 2}, "partial_args": ["discount", [], {"pct": 10}], "product": 120, "empty_initial": 42}
import operator
from functools import partial, reduce

def discount(price: float, pct: float) -> float:
    return price * (1 - pct / 100)

def add_fee(price: float, *, fee: float = 0.0) -> float:
    return price + fee

def compose(*fns):
    return reduce(lambda f, g: lambda x: g(f(x)), fns, lambda x: x)

pipeline = compose(partial(discount, pct=10), partial(add_fee, fee=2.5), partial(round, ndigits=2))
products = await tools.list_products(category="accessories")
prices = {p["sku"]: pipeline(p["price"]) for p in products}
ten_off = partial(discount, pct=10)
get_rate = partial(tools.get_exchange_rate, base="EUR")
usd = await get_rate(quote="USD")
total = reduce(operator.add, prices.values(), 0.0)
longest = reduce(lambda a, b: a if len(a) >= len(b) else b, [p["name"] for p in products])
merged = reduce(lambda acc, d: {**acc, **d}, [{"a": 1}, {"b": 2}, {"a": 3}], {})
return {"prices": prices, "usd_total": round(total * usd, 2), "longest": longest, "merged": merged,
        "partial_args": [ten_off.func.__name__, list(ten_off.args), ten_off.keywords],
        "product": reduce(operator.mul, range(1, 6)), "empty_initial": reduce(operator.add, [], 42)}

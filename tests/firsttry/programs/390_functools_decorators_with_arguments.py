# description: Wrap tool calls with a decorator factory (wraps, arguments), lru_cache, partial and reduce
# value: {"levels": {"KB-01": 14, "MN-27": 6, "HD-10": 42, "LP-14": 3}, "calls": ["wh:stock#1", "wh:stock#2", "wh:stock#1", "wh:stock#2", "wh:stock#3", "wh:stock#1", "wh:stock#1", "wh:stock#2", "wh:stock#3"], "name": "stock", "doc": "Total stock across warehouses.", "gross": 120.0, "rates": [0.2, 0.0, 0.2, 0.0, 0.21, 0.0], "cache": {"hits": 4, "misses": 3, "maxsize": null, "currsize": 3}, "fib30": 832040, "product": 24, "merged": {"a": 3, "b": 2}}
import functools
from functools import wraps, partial, reduce, lru_cache, cache
import operator

calls: list[str] = []


def traced(label: str, *, retries: int = 0):
    def decorator(fn):
        @wraps(fn)
        async def wrapper(*args, **kwargs):
            attempt = 0
            while True:
                attempt += 1
                calls.append(f"{label}:{fn.__name__}#{attempt}")
                try:
                    return await fn(*args, **kwargs)
                except ToolCallError as e:
                    if attempt > retries or e.type != "TimeoutError":
                        raise
        return wrapper
    return decorator


@traced("wh", retries=3)
async def stock(sku: str) -> int:
    """Total stock across warehouses."""
    s = await tools.warehouse_stock(sku=sku)
    return s["north"] + s["south"]


@lru_cache(maxsize=None)
def vat(country: str) -> float:
    return {"UK": 0.2, "NL": 0.21, "US": 0.0}.get(country, 0.19)


@cache
def fib(n: int) -> int:
    return n if n < 2 else fib(n - 1) + fib(n - 2)


skus = ["KB-01", "MN-27", "HD-10", "LP-14"]
levels = {sku: await stock(sku) for sku in skus}
with_vat = partial(lambda rate, amount: round(amount * (1 + rate), 2), vat("UK"))
customers = await tools.list_customers()
countries = [c["address"]["country"] for c in customers]
rates = [vat(c) for c in countries]
product = reduce(operator.mul, [2, 3, 4], 1)
merged = reduce(lambda acc, d: {**acc, **d}, [{"a": 1}, {"b": 2}, {"a": 3}], {})
return {
    "levels": levels,
    "calls": calls,
    "name": stock.__name__,
    "doc": stock.__doc__,
    "gross": with_vat(100.0),
    "rates": rates,
    "cache": vat.cache_info()._asdict(),
    "fib30": fib(30),
    "product": product,
    "merged": merged,
}

# description: Convert totals with cached rates, partial helpers and reduce
# value: {"usd": [127.71, 604.78, 203.04], "gbp": [100.5, 476.0, 159.8], "cents": [11825, 55998, 18800, 11825], "hits": 1, "misses": 3, "calls": 3, "grand": 984.48, "product": 120, "tri": 5050, "longest": "o-1001", "partial_name": "convert"}
import functools
import operator
from functools import lru_cache, partial, reduce, cache

calls = []

@lru_cache(maxsize=None)
def to_cents(amount):
    calls.append(amount)
    return round(amount * 100)

@cache
def tri(n):
    return n if n < 2 else n + tri(n - 1)

rates = {}
async def rate(quote):
    if quote not in rates:
        rates[quote] = await tools.get_exchange_rate(base="EUR", quote=quote)
    return rates[quote]

def convert(amount, rate, digits=2):
    return round(amount * rate, digits)

orders = await tools.list_orders(customer_id="c1")
usd = partial(convert, rate=await rate("USD"))
gbp = partial(convert, rate=await rate("GBP"), digits=1)
totals = [o["total"] for o in orders] + [orders[0]["total"]]
cents = [to_cents(t) for t in totals]
info = to_cents.cache_info()
grand = reduce(operator.add, totals, 0.0)
product = reduce(lambda a, b: a * b, [1, 2, 3, 4, 5])
longest = reduce(lambda a, b: a if len(a["lines"]) >= len(b["lines"]) else b, orders)
return {
    "usd": [usd(t) for t in totals[:3]],
    "gbp": [gbp(t) for t in totals[:3]],
    "cents": cents,
    "hits": info.hits,
    "misses": info.misses,
    "calls": len(calls),
    "grand": round(grand, 2),
    "product": product,
    "tri": tri(100),
    "longest": longest["id"],
    "partial_name": usd.func.__name__,
}

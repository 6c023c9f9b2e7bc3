# description: Memoise exchange-rate conversions with lru_cache and report the cache statistics
# value: {"converted": [108.0, 85.0, 15694.44, 108.0, 85.0], "hits": 0, "fib30": 832040, "fib_misses": 31, "after_clear": 0, "name": "rate"}
# logs: ["CacheInfo(hits=0, misses=5, maxsize=2, currsize=2)", "hits=0 misses=5 size=2/2"]
import asyncio
from functools import lru_cache, cache, wraps

pairs = [("EUR", "USD"), ("EUR", "GBP"), ("USD", "JPY"), ("EUR", "USD"), ("EUR", "GBP")]
rates = {}
for base, quote in dict.fromkeys(pairs):
    rates[(base, quote)] = await tools.get_exchange_rate(base=base, quote=quote)

@lru_cache(maxsize=2)
def rate(base, quote):
    return rates[(base, quote)]

@cache
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)

converted = [round(100 * rate(b, q), 2) for b, q in pairs]
info = rate.cache_info()
print(info)
print(f"hits={info.hits} misses={info.misses} size={info.currsize}/{info.maxsize}")
fib(30)
fib_info = fib.cache_info()
rate.cache_clear()
return {
    "converted": converted,
    "hits": info.hits,
    "fib30": fib(30),
    "fib_misses": fib_info.misses,
    "after_clear": rate.cache_info().currsize,
    "name": rate.__name__,
}

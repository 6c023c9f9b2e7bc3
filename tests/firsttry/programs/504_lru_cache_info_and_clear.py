# description: Memoise exchange-rate conversions and a recursive count with lru_cache, reading cache_info and clearing the cache
# value: {"labels": ["USD:1.08", "GBP:0.85", "USD:1.08", "CHF:0.96", "USD:1.08"], "hits": 2, "misses": 3, "maxsize": 2, "currsize": 2, "ways": 4562, "cached_before": true, "after": [0, 0, null, 0], "fib": 190392490709135, "fib_hits": 68}
from functools import cache, lru_cache

@lru_cache(maxsize=None)
def ways(amount: int, coins: tuple) -> int:
    if amount == 0:
        return 1
    if amount < 0 or not coins:
        return 0
    return ways(amount - coins[0], coins) + ways(amount, coins[1:])

@cache
def fib(n: int) -> int:
    return n if n < 2 else fib(n - 1) + fib(n - 2)

rates = {}
@lru_cache(maxsize=2)
def label(code: str) -> str:
    return f"{code}:{rates[code]}"

for code in ["USD", "GBP", "CHF"]:
    rates[code] = await tools.get_exchange_rate(base="EUR", quote=code)
labels = [label(c) for c in ["USD", "GBP", "USD", "CHF", "USD"]]
info = label.cache_info()
n = ways(100, (50, 20, 10, 5, 2, 1))
before = ways.cache_info()
ways.cache_clear()
after = ways.cache_info()
return {"labels": labels, "hits": info.hits, "misses": info.misses, "maxsize": info.maxsize, "currsize": info.currsize,
        "ways": n, "cached_before": before.currsize > 0, "after": list(after), "fib": fib(70),
        "fib_hits": fib.cache_info().hits}

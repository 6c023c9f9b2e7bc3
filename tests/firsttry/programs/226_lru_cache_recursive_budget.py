# description: Find the best product bundle within a budget with memoised recursion (functools.lru_cache and cache)
# value: {"spent": 197.75, "bundle": ["CB-05", "HD-10", "HS-07"], "hits_gt_0": false, "ways_100": 49, "fib_ok": true, "after_clear": 0, "fib_maxsize": 2, "comb": 35, "perm": 20, "prod": 2726, "gcd": 42, "lcm": 60}
from functools import lru_cache, cache
import math

products = await tools.list_products()
items = tuple(sorted((p["sku"], round(p["price"] * 100), p["in_stock"] > 0) for p in products))
BUDGET = 20000


@lru_cache(maxsize=None)
def best(i, budget):
    if i == len(items):
        return (0, ())
    sku, price, available = items[i]
    skip = best(i + 1, budget)
    if not available or price > budget:
        return skip
    value, chosen = best(i + 1, budget - price)
    take = (value + price, (sku,) + chosen)
    return max(skip, take)


@cache
def ways(amount, coins=(50, 20, 10, 5)):
    if amount == 0:
        return 1
    if amount < 0 or not coins:
        return 0
    return ways(amount - coins[0], coins) + ways(amount, coins[1:])


@lru_cache(maxsize=2)
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


spent, bundle = best(0, BUDGET)
info = best.cache_info()
fib(30)
best.cache_clear()
return {"spent": spent / 100, "bundle": list(bundle), "hits_gt_0": info.hits > 0, "ways_100": ways(100), "fib_ok": fib(20) == 6765,
        "after_clear": best.cache_info().currsize, "fib_maxsize": fib.cache_info().maxsize, "comb": math.comb(7, 3), "perm": math.perm(5, 2),
        "prod": math.prod([p["in_stock"] for p in products if p["in_stock"]]) % 10007, "gcd": math.gcd(84, 126), "lcm": math.lcm(4, 6, 10)}

# description: Plan a restock within budget and count box packings with memoised recursion
# value: {"value": 21, "chosen": ["MS-02", "MN-27", "LP-14"], "hits_positive": false, "misses": 36, "cleared": 0, "boxes": {"4 items": 1, "12 items": 4, "25 items": 12, "100 items": 121}, "fib": [55, 12586269025, 2880067194370816120], "fib_cache": [32, 32], "wrapped_doc": "Max shortage covered (value) choosing whole products, 0/1 knapsack."}
# logs: ["covered 21 units with ('MS-02', 'MN-27', 'LP-14'); cache 0 hits 36 misses"]
# limitation: a returned int beyond 2**53 is refused as not lossless JSON, plain json.dumps writes it
from functools import cache, lru_cache

products = await tools.list_products()
items = tuple((p["sku"], int(p["price"]), max(0, 10 - p["in_stock"])) for p in products)
BUDGET = 400


@lru_cache(maxsize=None)
def best(i: int, budget: int) -> tuple[int, tuple[str, ...]]:
    """Max shortage covered (value) choosing whole products, 0/1 knapsack."""
    if i == len(items) or budget <= 0:
        return 0, ()
    skip = best(i + 1, budget)
    sku, price, need = items[i]
    if need and price <= budget:
        value, chosen = best(i + 1, budget - price)
        take = (value + need, (sku, *chosen))
        return max(skip, take)
    return skip


@cache
def ways(n: int, sizes: tuple[int, ...]) -> int:
    """Number of ways to pack n items into boxes of the given sizes."""
    if n == 0:
        return 1
    if n < 0 or not sizes:
        return 0
    return ways(n - sizes[0], sizes) + ways(n, sizes[1:])


def fib():
    @lru_cache(maxsize=32)
    def f(n: int) -> int:
        return n if n < 2 else f(n - 1) + f(n - 2)
    return f


value, chosen = best(0, BUDGET)
info = best.cache_info()
boxes = {f"{n} items": ways(n, (1, 5, 10)) for n in (4, 12, 25, 100)}
f = fib()
fib_values = [f(n) for n in (10, 50, 90)]
finfo = f.cache_info()
best.cache_clear()
print(f"covered {value} units with {chosen}; cache {info.hits} hits {info.misses} misses")
return {
    "value": value,
    "chosen": list(chosen),
    "hits_positive": info.hits > 0,
    "misses": info.misses,
    "cleared": best.cache_info().currsize,
    "boxes": boxes,
    "fib": fib_values,
    "fib_cache": [finfo.maxsize, finfo.currsize],
    "wrapped_doc": best.__doc__,
}

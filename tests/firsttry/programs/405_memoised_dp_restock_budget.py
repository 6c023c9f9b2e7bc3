# description: Choose restock quantities within a budget with memoised recursion (lru_cache) and reconstruct the plan
# value: {"items": ["MS-02", "MN-27", "LP-14", "HS-07"], "score": 51, "plan": [["MS-02", 10], ["LP-14", 7]], "spent": 575, "cache_hits": true, "typo": {"Keyboard": 2, "Kettle": 6}}
from functools import lru_cache

products = await tools.list_products()
items = [(p["sku"], p["price"], max(0, 10 - p["in_stock"])) for p in products]
items = [i for i in items if i[2] > 0]
BUDGET = 600  # whole euros
costs = [int(round(price)) for _, price, _ in items]
values = [need * 3 + (5 if price > 100 else 0) for _, price, need in items]


@lru_cache(maxsize=None)
def best(i: int, budget: int) -> int:
    if i == len(items):
        return 0
    skip = best(i + 1, budget)
    _, _, need = items[i]
    take = -1
    for qty in range(1, need + 1):
        cost = costs[i] * qty
        if cost > budget:
            break
        take = max(take, values[i] * qty // need + best(i + 1, budget - cost))
    return max(skip, take)


def plan(i: int, budget: int) -> list:
    if i == len(items):
        return []
    if best(i, budget) == best(i + 1, budget):
        return plan(i + 1, budget)
    _, _, need = items[i]
    for qty in range(1, need + 1):
        cost = costs[i] * qty
        if cost <= budget and values[i] * qty // need + best(i + 1, budget - cost) == best(i, budget):
            return [(items[i][0], qty)] + plan(i + 1, budget - cost)
    return plan(i + 1, budget)


@lru_cache(maxsize=None)
def edit(a: str, b: str) -> int:
    if not a or not b:
        return len(a) + len(b)
    if a[0] == b[0]:
        return edit(a[1:], b[1:])
    return 1 + min(edit(a[1:], b), edit(a, b[1:]), edit(a[1:], b[1:]))


chosen = plan(0, BUDGET)
spent = sum(costs[[i[0] for i in items].index(s)] * q for s, q in chosen)
return {
    "items": [i[0] for i in items],
    "score": best(0, BUDGET),
    "plan": chosen,
    "spent": spent,
    "cache_hits": best.cache_info().hits > 0,
    "typo": {name: edit("keybaord", name.lower()[:8]) for name in ("Keyboard", "Kettle")},
}

# description: Memo dict as a default argument and a global counter updated from async helpers
# value: {"fib": 190392490709135, "stocks": [14, 0, 3], "calls": 3}
calls = 0

def cost(n, memo={}):
    if n in memo:
        return memo[n]
    result = n if n < 2 else cost(n - 1) + cost(n - 2)
    memo[n] = result
    return result

async def fetch(sku):
    global calls
    calls += 1
    return await tools.get_stock(sku=sku)

stocks = [await fetch(s) for s in ["KB-01", "MS-02", "LP-14"]]
return {"fib": cost(70), "stocks": stocks, "calls": calls}

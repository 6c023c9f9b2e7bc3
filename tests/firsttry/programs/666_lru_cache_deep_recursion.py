# description: Count ways to make change for a refund with a memoised recursive function
# value: {"total": 45.0, "ways": 328}
from functools import lru_cache

coins = (1, 2, 5, 10, 20, 50)

@lru_cache(maxsize=None)
def ways(amount, index=0):
    if amount == 0:
        return 1
    if amount < 0 or index == len(coins):
        return 0
    return ways(amount - coins[index], index) + ways(amount, index + 1)

order = await tools.get_order(order_id="o-1004")
cents = int(order["total"])
return {"total": order["total"], "ways": ways(cents)}

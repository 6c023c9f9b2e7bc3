# description: Convert order totals to several currencies with partial, reduce and cached_property
# value: {"eur": 455.49, "converted": {"USD": 491.93, "GBP": 387.17, "JPY": 77205.56}, "computed": 2, "skus": ["CB-05", "HD-10", "MN-27"], "product": 24, "rounded": [1.3, 3.1]}
import asyncio
import operator
from functools import cached_property, partial, reduce

class Portfolio:
    def __init__(self, orders):
        self.orders = orders
        self.computed = 0

    @cached_property
    def total(self):
        self.computed += 1
        return reduce(operator.add, (o["total"] for o in self.orders), 0.0)

    @cached_property
    def sku_set(self):
        return reduce(lambda acc, o: acc | {l["sku"] for l in o["lines"]}, self.orders, set())

rate = partial(tools.get_exchange_rate, base="EUR")
quotes = ["USD", "GBP", "JPY"]
rates = dict(zip(quotes, await asyncio.gather(*(rate(quote=q) for q in quotes))))

orders = await tools.list_orders(customer_id="c4")
p = Portfolio(orders)
converted = {q: round(p.total * r, 2) for q, r in rates.items()}
_ = p.total, p.total
del p.total
_ = p.total
round2 = partial(round, ndigits=1)
return {
    "eur": round(p.total, 2),
    "converted": converted,
    "computed": p.computed,
    "skus": sorted(p.sku_set),
    "product": reduce(operator.mul, [1, 2, 3, 4]),
    "rounded": list(map(round2, [1.26, 3.14159])),
}

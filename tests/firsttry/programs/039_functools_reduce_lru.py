# description: Compute order totals with functools helpers
# value: {"totals": [322.19, 87.75], "grand_total": 409.94, "units": 13, "cache_hits": 0}
import functools
import operator


@functools.lru_cache(maxsize=None)
def discount_rate(tier):
    return {"enterprise": 0.15, "pro": 0.1}.get(tier, 0.0)


def apply_discount(total, rate):
    return round(total * (1 - rate), 2)


customer = await tools.get_customer(customer_id="c4")
orders = await tools.list_orders(customer_id="c4")
discounted = functools.partial(apply_discount, rate=discount_rate(customer["tier"]))

totals = [discounted(o["total"]) for o in orders]
grand = functools.reduce(operator.add, totals, 0.0)
units = functools.reduce(lambda acc, o: acc + sum(l["quantity"] for l in o["lines"]), orders, 0)
return {"totals": totals, "grand_total": round(grand, 2), "units": units,
        "cache_hits": discount_rate.cache_info().hits}

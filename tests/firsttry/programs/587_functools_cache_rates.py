# description: Convert order totals to several currencies, caching rate lookups in a dict with functools.cache on the key
# value: {"converted": {"o-1001": {"usd": 127.71, "gbp": 100.51}, "o-1002": {"usd": 604.78, "gbp": 475.98}, "o-1003": {"usd": 203.04, "gbp": 159.8}}, "lookups": 2, "cache_info": 4}
import functools
import asyncio

rates: dict[tuple[str, str], float] = {}

@functools.cache
def pair(base: str, quote: str) -> tuple[str, str]:
    return (base.upper(), quote.upper())

async def rate(base, quote):
    key = pair(base, quote)
    if key not in rates:
        rates[key] = await tools.get_exchange_rate(base=key[0], quote=key[1])
    return rates[key]

orders = await tools.list_orders(customer_id="c1")
converted = {}
for o in orders:
    converted[o["id"]] = {q: round(o["total"] * await rate("eur", q), 2) for q in ("usd", "gbp")}
return {"converted": converted, "lookups": len(rates), "cache_info": pair.cache_info().hits}

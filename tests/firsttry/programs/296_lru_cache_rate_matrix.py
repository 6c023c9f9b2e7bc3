# description: Convert every order total into several currencies, caching exchange rates
# value: {"rows": 8, "sum_usd": 2241.78, "max_jpy": 94917, "hits": 28, "misses": 4, "usd_to_eur_100": 92.59, "partial_kw": {"quote": "USD"}}
# logs: ["o-1001  EUR=   118.25  USD=   127.71  GBP=   100.51  JPY=    20043  CHF=   113.52", "o-1002  EUR=   559.98  USD=   604.78  GBP=   475.98  JPY=    94917  CHF=   537.58", "o-1003  EUR=    188.0  USD=   203.04  GBP=    159.8  JPY=    31866  CHF=   180.48"]
import asyncio
from functools import lru_cache, partial

CURRENCIES = ("USD", "GBP", "JPY", "CHF")
pairs = [("EUR", q) for q in CURRENCIES]
fetched = await asyncio.gather(*(tools.get_exchange_rate(base=b, quote=q) for b, q in pairs))
RATES = dict(zip(pairs, fetched))

@lru_cache(maxsize=None)
def rate(base: str, quote: str) -> float:
    if base == quote:
        return 1.0
    if (base, quote) in RATES:
        return RATES[base, quote]
    return 1 / rate(quote, base)

def convert(amount: float, quote: str, base: str = "EUR") -> float:
    value = amount * rate(base, quote)
    return round(value) if quote == "JPY" else round(value, 2)

to_usd = partial(convert, quote="USD")
to_gbp = partial(convert, quote="GBP")

orders = []
for cid in ("c1", "c4", "c6"):
    orders += await tools.list_orders(customer_id=cid)

table = []
for o in orders:
    row = {"id": o["id"], "EUR": o["total"], "USD": to_usd(o["total"]), "GBP": to_gbp(o["total"])}
    row.update({q: convert(o["total"], q) for q in ("JPY", "CHF")})
    table.append(row)

for r in table[:3]:
    print("  ".join(f"{k}={v:>9}" if isinstance(v, (int, float)) else f"{v}" for k, v in r.items()))
info = rate.cache_info()
back = round(convert(100.0, "EUR", base="USD"), 2)
return {"rows": len(table), "sum_usd": round(sum(r["USD"] for r in table), 2), "max_jpy": max(r["JPY"] for r in table),
        "hits": info.hits, "misses": info.misses, "usd_to_eur_100": back, "partial_kw": to_usd.keywords}

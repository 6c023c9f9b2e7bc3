# description: A rates client class caching exchange rates with functools.cache on a helper and cached_property, clearing caches
# value: {"converted": ["$127.71", "\u00a3475.98", "$48.60", "\u00a560,679.31", "\u00a3379.95"], "fetches": 3, "again": [1.08, 0.85, 1.0], "hits": 2, "after": 0, "label": "rates from EUR"}
import functools
import asyncio


class RatesClient:
    def __init__(self, base: str):
        self.base = base
        self._rates: dict[str, float] = {}
        self.fetches = 0

    async def rate(self, quote: str) -> float:
        if quote == self.base:
            return 1.0
        if quote not in self._rates:
            self.fetches += 1
            self._rates[quote] = await tools.get_exchange_rate(base=self.base, quote=quote)
        return self._rates[quote]

    @functools.cached_property
    def label(self) -> str:
        return f"rates from {self.base}"

    @staticmethod
    @functools.lru_cache(maxsize=32)
    def symbol(code: str) -> str:
        return {"EUR": "€", "USD": "$", "GBP": "£", "JPY": "¥"}.get(code, code)


client = RatesClient("EUR")
orders = [await tools.get_order(order_id=f"o-10{i:02d}") for i in (1, 2, 4, 7, 9)]
targets = ["USD", "GBP", "USD", "JPY", "GBP"]
converted = []
for o, q in zip(orders, targets):
    r = await client.rate(q)
    converted.append(f"{RatesClient.symbol(q)}{o['total'] * r:,.2f}")

again = await asyncio.gather(*(client.rate(q) for q in ["USD", "GBP", "EUR"]))
info_before = RatesClient.symbol.cache_info()
RatesClient.symbol.cache_clear()
info_after = RatesClient.symbol.cache_info()
first_label = client.label
del client.label
label = client.label
return {
    "converted": converted,
    "fetches": client.fetches,
    "again": list(again),
    "hits": info_before.hits,
    "after": info_after.currsize,
    "label": label,
}

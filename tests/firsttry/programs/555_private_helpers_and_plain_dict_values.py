# description: Summarise products through private helpers and a cache class
# value: {"picks": ["CB-05 9.75", "HS-07 149.00", "CB-05 9.75"], "cached": ["accessories", "audio"], "value_type": "dict"}
class _PriceBook:
    def __init__(self):
        self._cache = {}

    async def _load(self, category):
        if category not in self._cache:
            self._cache[category] = await tools.list_products(category=category)
        return self._cache[category]

    async def cheapest(self, category):
        items = await self._load(category)
        return min(items, key=lambda p: p["price"])

def _fmt(p):
    return f"{p['sku']} {p['price']:.2f}"

book = _PriceBook()
picks = [_fmt(await book.cheapest(c)) for c in ["accessories", "audio", "accessories"]]
sample = (await book._load("audio"))[0]
return {"picks": picks, "cached": sorted(book._cache), "value_type": type(sample).__name__}

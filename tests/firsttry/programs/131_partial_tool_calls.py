# description: Pre-bind tool arguments with functools.partial
# value: {"warmest": "Tokyo", "rain_days": {"Tokyo": 1, "Sydney": 1, "New York": 1}, "to_eur": {"USD": 0.925926, "GBP": 1.176471, "JPY": 0.0059}, "keywords": {"days": 3}}
import asyncio
from functools import partial

three_day = partial(tools.forecast, days=3)
to_eur = partial(tools.get_exchange_rate, quote="EUR")
cities = ["Tokyo", "Sydney", "New York"]
forecasts = await asyncio.gather(*(three_day(city=c) for c in cities))
rates = await asyncio.gather(*map(lambda cur: to_eur(base=cur), ["USD", "GBP", "JPY"]))
warmest = max(zip(cities, forecasts), key=lambda cf: max(d["high"] for d in cf[1]))
return {
    "warmest": warmest[0],
    "rain_days": {c: sum(d["condition"] == "rain" for d in f) for c, f in zip(cities, forecasts)},
    "to_eur": dict(zip(["USD", "GBP", "JPY"], rates)),
    "keywords": dict(three_day.keywords),
}

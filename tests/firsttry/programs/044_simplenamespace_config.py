# description: Plan a trip using a config object
# value: {"good_days": ["2024-06-16", "2024-06-17"], "budget": {"eur": 1200, "local": 1296.0}}
# logs: ["2 good days in Sydney"]
from types import SimpleNamespace

config = SimpleNamespace(city="Sydney", days=4, min_high=18.0, currency="USD")

days = await tools.forecast(city=config.city, days=config.days)
good = [d for d in days if d["high"] >= config.min_high and d["condition"] != "rain"]
rate = await tools.get_exchange_rate(base="EUR", quote=config.currency)
budget = SimpleNamespace(eur=1200, local=round(1200 * rate, 2))

print(f"{len(good)} good days in {config.city}")
return {"good_days": [d["date"] for d in good], "budget": vars(budget)}

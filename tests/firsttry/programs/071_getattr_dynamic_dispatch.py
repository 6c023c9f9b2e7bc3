# description: Run a small plan of tool calls described as data
# value: {"paris": "cloudy", "hubs": 42, "chf": 0.96, "has_forecast": false}
plan = [
    ("get_weather", {"city": "Paris"}),
    ("get_stock", {"sku": "HD-10"}),
    ("get_exchange_rate", {"base": "EUR", "quote": "CHF"}),
]

results = {}
for name, kwargs in plan:
    fn = getattr(tools, name)
    results[name] = await fn(**kwargs)


class Summary:
    pass


s = Summary()
for key, value in results.items():
    setattr(s, key, value)

return {
    "paris": s.get_weather["condition"],
    "hubs": s.get_stock,
    "chf": s.get_exchange_rate,
    "has_forecast": hasattr(s, "forecast"),
}

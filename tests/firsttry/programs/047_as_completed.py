# description: Collect weather as results arrive
# value: {"Cairo": "sunny", "London": "rain", "Tokyo": "sunny"}
import asyncio

cities = ["Tokyo", "Cairo", "London"]
collected = {}
for coro in asyncio.as_completed([tools.get_weather(city=c) for c in cities]):
    w = await coro
    collected[w["city"]] = w["condition"]

return dict(sorted(collected.items()))

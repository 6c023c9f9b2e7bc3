# description: Check weather in many cities and report results in arrival order and then in a stable order
# value: {"arrival_last": "Sydney", "arrival_count": 6, "table": ["Sydney    17.5 cloudy", "Cairo     33.5 sunny", "Oslo       6.5 snow", "Gotham   ERROR LookupError", "Paris     18.0 cloudy", "Tokyo     24.0 sunny"], "warmest": "Cairo", "errors": 1}
# logs: ["Sydney    17.5 cloudy", "Cairo     33.5 sunny", "Oslo       6.5 snow", "Gotham   ERROR LookupError", "Paris     18.0 cloudy", "Tokyo     24.0 sunny"]
import asyncio

cities = ["Sydney", "Cairo", "Oslo", "Gotham", "Paris", "Tokyo"]

async def fetch(i: int, city: str):
    await asyncio.sleep(0.02 * (len(cities) - i))
    try:
        return i, await tools.get_weather(city=city)
    except ToolCallError as e:
        return i, e

arrival = []
results = [None] * len(cities)
for fut in asyncio.as_completed([fetch(i, c) for i, c in enumerate(cities)]):
    i, value = await fut
    arrival.append(cities[i])
    results[i] = value

lines = []
for city, r in zip(cities, results):
    if isinstance(r, ToolCallError):
        lines.append(f"{city:<8} ERROR {r.type}")
    else:
        lines.append(f"{city:<8} {r['celsius']:>5.1f} {r['condition']}")
print("\n".join(lines))
ok = [r for r in results if not isinstance(r, Exception)]
return {"arrival_last": arrival[-1], "arrival_count": len(arrival), "table": lines,
        "warmest": max(ok, key=lambda w: w["celsius"])["city"], "errors": sum(isinstance(r, Exception) for r in results)}

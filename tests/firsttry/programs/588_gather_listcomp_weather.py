# description: Fetch weather for several cities at once with asyncio.gather over a list comprehension
# value: {"avg": 19.3, "failed": ["Atlantis"], "warmest": "Cairo"}
# logs: ["Warmest: Cairo at 33.5°C"]
import asyncio

cities = ["London", "Paris", "Oslo", "Tokyo", "Cairo", "Atlantis"]
results = await asyncio.gather(*[tools.get_weather(city=c) for c in cities], return_exceptions=True)
ok = {c: r for c, r in zip(cities, results) if not isinstance(r, Exception)}
failed = [c for c, r in zip(cities, results) if isinstance(r, ToolCallError)]
warmest = max(ok.values(), key=lambda w: w["celsius"])
print(f"Warmest: {warmest['city']} at {warmest['celsius']:.1f}°C")
return {"avg": round(sum(w["celsius"] for w in ok.values()) / len(ok), 2), "failed": failed, "warmest": warmest["city"]}

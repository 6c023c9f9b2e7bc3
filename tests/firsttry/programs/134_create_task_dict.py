# description: Start tasks keyed by city and collect them later
# value: {"names": ["wx-Cairo", "wx-London", "wx-Oslo", "wx-Paris", "wx-Tokyo"], "done": true, "spread": 27.0, "oslo_snow": 0, "humid": ["London", "Paris", "Oslo"]}
import asyncio

cities = ["London", "Paris", "Oslo", "Tokyo", "Cairo"]
tasks = {city: asyncio.create_task(tools.get_weather(city=city), name=f"wx-{city}") for city in cities}
fc_task = asyncio.create_task(tools.forecast(city="Oslo", days=5))
results = {}
for city, task in tasks.items():
    results[city] = await task
forecast = await fc_task
names = sorted(t.get_name() for t in tasks.values())
done = all(t.done() for t in tasks.values())
spread = max(r["celsius"] for r in results.values()) - min(r["celsius"] for r in results.values())
return {"names": names, "done": done, "spread": spread, "oslo_snow": sum(d["condition"] == "snow" for d in forecast), "humid": [c for c, r in results.items() if r["humidity"] > 60]}

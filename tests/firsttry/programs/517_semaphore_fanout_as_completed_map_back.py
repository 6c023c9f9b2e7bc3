# description: Fetch weather for many cities with at most 3 calls in flight, collecting in completion order and mapping results back to input order
# value: {"table": [{"city": "London", "celsius": 14.5}, {"city": "Paris", "celsius": 18.0}, {"city": "Oslo", "celsius": 6.5}, {"city": "Tokyo", "celsius": 24.0}, {"city": "Cairo", "celsius": 33.5}, {"city": "New York", "celsius": 21.0}, {"city": "Sydney", "celsius": 17.5}, {"city": "Atlantis", "error": "LookupError"}], "peak_ok": true, "done": 8, "locked": false}
import asyncio

cities = ["London", "Paris", "Oslo", "Tokyo", "Cairo", "New York", "Sydney", "Atlantis"]
limit = asyncio.Semaphore(3)
peak = 0
active = 0

async def fetch(index: int, city: str):
    global active, peak
    async with limit:
        active += 1
        peak = max(peak, active)
        try:
            return index, await tools.get_weather(city=city)
        except ToolCallError as exc:
            return index, exc
        finally:
            active -= 1

results = [None] * len(cities)
done_order = 0
for fut in asyncio.as_completed([fetch(i, c) for i, c in enumerate(cities)]):
    i, value = await fut
    results[i] = value
    done_order += 1
table = [{"city": c, "celsius": r["celsius"]} if isinstance(r, dict) else {"city": c, "error": r.type}
         for c, r in zip(cities, results)]
return {"table": table, "peak_ok": peak <= 3, "done": done_order, "locked": limit.locked()}

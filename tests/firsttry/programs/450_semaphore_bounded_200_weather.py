# description: 200 weather lookups with at most 8 in flight, tracking the peak concurrency
# value: {"calls": 200, "failed": 25, "peak_le_8": true, "mean": 19.286}
import asyncio
cities = ["London", "Paris", "Oslo", "Tokyo", "Cairo", "New York", "Sydney", "Atlantis"]
sem = asyncio.Semaphore(8)
in_flight = 0
peak = 0

async def fetch(city):
    global in_flight, peak
    async with sem:
        in_flight += 1
        peak = max(peak, in_flight)
        try:
            return (await tools.get_weather(city=city))["celsius"]
        except ToolCallError:
            return None
        finally:
            in_flight -= 1

temps = await asyncio.gather(*(fetch(cities[i % len(cities)]) for i in range(200)))
ok = [t for t in temps if t is not None]
return {"calls": len(temps), "failed": temps.count(None), "peak_le_8": peak <= 8, "mean": round(sum(ok) / len(ok), 3)}

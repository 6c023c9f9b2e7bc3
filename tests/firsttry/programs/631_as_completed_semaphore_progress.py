# description: Fetch forecasts for many cities with a semaphore and report them as they complete
# value: {"rain": {"Cairo": 0.0, "London": 9.0, "New York": 9.0, "Oslo": 9.0, "Paris": 9.0, "Sydney": 0.0, "Tokyo": 9.0}, "failures": ["forecast"], "peak_ok": true, "locked": false}
import asyncio

cities = ["London", "Paris", "Oslo", "Tokyo", "Cairo", "New York", "Sydney", "Atlantis"]
limit = asyncio.Semaphore(3)
in_flight = 0
peak = 0

async def rain_total(city):
    global in_flight, peak
    async with limit:
        in_flight += 1
        peak = max(peak, in_flight)
        try:
            days = await tools.forecast(city=city, days=5)
        finally:
            in_flight -= 1
    return city, sum(d["rain_mm"] for d in days)

done = {}
failures = []
for fut in asyncio.as_completed([rain_total(c) for c in cities]):
    try:
        city, mm = await fut
        done[city] = mm
    except ToolCallError as e:
        failures.append(e.tool_name)
return {"rain": dict(sorted(done.items())), "failures": failures, "peak_ok": peak <= 3, "locked": limit.locked()}

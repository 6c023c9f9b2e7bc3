# description: Gather forecasts under an overall asyncio.timeout budget, then retry one slow step with wait_for and a fallback
# value: {"highs": {"London": 16.0, "Paris": 19.5, "Oslo": 8.0, "Tokyo": 25.5}, "status": "complete", "value": "fallback", "inner": "TimeoutError", "quick": 33.5, "same_class": true}
import asyncio

cities = ["London", "Paris", "Oslo", "Tokyo"]
highs = {}
try:
    async with asyncio.timeout(10):
        for city in cities:
            days = await tools.forecast(city=city, days=2)
            highs[city] = max(d["high"] for d in days)
    status = "complete"
except TimeoutError:
    status = "partial"

async def slow_lookup():
    await asyncio.sleep(5)
    return "never"

try:
    value = await asyncio.wait_for(slow_lookup(), timeout=0.01)
except asyncio.TimeoutError:
    value = "fallback"
try:
    async with asyncio.timeout(0.01):
        await asyncio.sleep(5)
    inner = "finished"
except TimeoutError as exc:
    inner = type(exc).__name__
quick = await asyncio.wait_for(tools.get_weather(city="Cairo"), timeout=5)
return {"highs": highs, "status": status, "value": value, "inner": inner, "quick": quick["celsius"],
        "same_class": asyncio.TimeoutError is TimeoutError}

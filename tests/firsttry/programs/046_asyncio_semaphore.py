# description: Fetch forecasts for many cities, two at a time
# value: {"highs": {"London": 16.0, "Paris": 19.5, "Oslo": 8.0, "Tokyo": 25.5, "Cairo": 35.0, "Sydney": 19.0}, "hottest_day_after_tomorrow": "Cairo"}
import asyncio

cities = ["London", "Paris", "Oslo", "Tokyo", "Cairo", "Sydney"]
sem = asyncio.Semaphore(2)


async def fetch(city):
    async with sem:
        days = await tools.forecast(city=city, days=2)
        return city, days[-1]["high"]


pairs = await asyncio.gather(*(fetch(c) for c in cities))
highs = dict(pairs)
hottest = max(highs, key=highs.get)
return {"highs": highs, "hottest_day_after_tomorrow": hottest}

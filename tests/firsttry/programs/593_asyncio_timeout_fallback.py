# description: Bound each forecast call with asyncio.timeout and fall back to current weather
# value: [{"city": "Paris", "source": "forecast", "high": 19.5}, {"city": "Sydney", "source": "forecast", "high": 19.0}, {"city": "Gotham", "source": "error", "error": "LookupError"}]
import asyncio

async def outlook(city: str) -> dict:
    try:
        async with asyncio.timeout(5):
            days = await tools.forecast(city=city, days=2)
        return {"city": city, "source": "forecast", "high": max(d["high"] for d in days)}
    except TimeoutError:
        w = await tools.get_weather(city=city)
        return {"city": city, "source": "current", "high": w["celsius"]}
    except ToolCallError as e:
        return {"city": city, "source": "error", "error": e.type}

async with asyncio.TaskGroup() as tg:
    tasks = [tg.create_task(outlook(c)) for c in ("Paris", "Sydney", "Gotham")]
return [t.result() for t in tasks]

# description: Use a tool only when it exists, else fall back to another
# value: {"has_v1": true, "has_v2": false, "reports": [{"source": "v1", "city": "Oslo", "celsius": 6.5}, {"source": "v1", "city": "Cairo", "celsius": 33.5}]}
import asyncio

async def weather_report(city):
    if hasattr(tools, "get_weather_v2"):
        source = "v2"
        data = await getattr(tools, "get_weather_v2")(city=city)
    else:
        source = "v1"
        data = await tools.get_weather(city=city)
    return {"source": source, "city": data["city"], "celsius": data["celsius"]}

reports = await asyncio.gather(*(weather_report(c) for c in ["Oslo", "Cairo"]))
return {"has_v1": hasattr(tools, "get_weather"), "has_v2": hasattr(tools, "get_weather_v2"),
        "reports": reports}

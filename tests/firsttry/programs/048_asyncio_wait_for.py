# description: Get Oslo weather with a timeout and a fallback
# value: {"source": "live", "condition": "snow", "advice": "wear a coat"}
import asyncio

try:
    weather = await asyncio.wait_for(tools.get_weather(city="Oslo"), timeout=10)
    source = "live"
except asyncio.TimeoutError:
    weather = {"city": "Oslo", "celsius": None, "condition": "unknown"}
    source = "fallback"

advice = "wear a coat" if weather["celsius"] is not None and weather["celsius"] < 10 else "no coat"
return {"source": source, "condition": weather["condition"], "advice": advice}

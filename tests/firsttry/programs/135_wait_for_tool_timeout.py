# description: Guard slow tool calls with asyncio.wait_for and fall back
# value: {"Paris": [18.0, "live"], "Oslo": [null, "timeout"], "Gotham": [null, "error:LookupError"]}
import asyncio

async def slow_lookup(city):
    await asyncio.sleep(0.5)
    return await tools.get_weather(city=city)

async def fetch_with_fallback(city, timeout):
    try:
        return (await asyncio.wait_for(slow_lookup(city), timeout=timeout))["celsius"], "live"
    except asyncio.TimeoutError:
        return None, "timeout"
    except ToolCallError as e:
        return None, f"error:{e.type}"

results = await asyncio.gather(
    fetch_with_fallback("Paris", 10.0),
    fetch_with_fallback("Oslo", 0.05),
    fetch_with_fallback("Gotham", 10.0),
)
return dict(zip(["Paris", "Oslo", "Gotham"], results))

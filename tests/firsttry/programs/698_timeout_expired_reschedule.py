# description: An unbounded asyncio.timeout(None) block, then expired() after a real timeout
# value: {"stock": 42, "weather": "snow", "expired": true}
import asyncio

async def never():
    await asyncio.Event().wait()

results = {}
try:
    async with asyncio.timeout(None) as cm:
        results["stock"] = await tools.get_stock(sku="HD-10")
        results["weather"] = (await tools.get_weather(city="Oslo"))["condition"]
except TimeoutError:
    results["timed_out"] = True
try:
    async with asyncio.timeout(0.05) as cm2:
        await never()
except TimeoutError:
    results["expired"] = cm2.expired()
return results

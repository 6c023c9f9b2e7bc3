# description: Fetch a dashboard within a time budget using asyncio.timeout
# value: {"data": {"weather": "rain", "pending": ["o-1003"], "docs": ["kb-4", "kb-3"]}, "timed_out": true}
import asyncio

async def dashboard():
    weather, orders, hits = await asyncio.gather(
        tools.get_weather(city="London"),
        tools.list_orders(customer_id="c1", status="pending"),
        tools.search_docs(query="refund", limit=2),
    )
    return {"weather": weather["condition"], "pending": [o["id"] for o in orders], "docs": [h["id"] for h in hits]}

try:
    async with asyncio.timeout(10):
        data = await dashboard()
except TimeoutError:
    data = None

timed_out = False
try:
    async with asyncio.timeout(0.05):
        await asyncio.sleep(1)
except TimeoutError:
    timed_out = True

return {"data": data, "timed_out": timed_out}

# description: Race two lookups and cancel the loser with asyncio.wait
# value: {"winner": "fast:33.5", "cancelled": true, "slow_cancelled": true, "stocks": [14, 42]}
import asyncio

async def slow_source():
    await asyncio.sleep(5)
    return "slow"

async def fast_source():
    w = await tools.get_weather(city="Cairo")
    return f"fast:{w['celsius']}"

t_slow = asyncio.create_task(slow_source())
t_fast = asyncio.create_task(fast_source())
done, pending = await asyncio.wait({t_slow, t_fast}, return_when=asyncio.FIRST_COMPLETED)
winner = done.pop().result()
for t in pending:
    t.cancel()
try:
    await t_slow
except asyncio.CancelledError:
    cancelled = True
all_done, _ = await asyncio.wait([asyncio.create_task(tools.get_stock(sku=s)) for s in ["KB-01", "HD-10"]])
return {"winner": winner, "cancelled": cancelled, "slow_cancelled": t_slow.cancelled(), "stocks": sorted(t.result() for t in all_done)}

# description: Look up weather with per-call deadlines, cancel stragglers and report task states
# value: {"results": {"Paris": 18.0, "Oslo": "timeout"}, "winner": ["fast", 24.0], "pending_outcomes": ["CancelledError"], "cleanups": ["cancelled Cairo", "cancelled Oslo"], "bg_state": "cancelled", "block": "timed out", "alias": true, "caught_by_exception": false, "task_name": "namer", "is_base": false}
# logs: ["{'Paris': 18.0, 'Oslo': 'timeout'} fast ['cancelled Oslo', 'cancelled Cairo']"]
import asyncio

cleanups: list[str] = []


async def slow_lookup(city: str, delay: float):
    try:
        await asyncio.sleep(delay)
        w = await tools.get_weather(city=city)
        return w["celsius"]
    except asyncio.CancelledError:
        cleanups.append(f"cancelled {city}")
        raise


async def named():
    return asyncio.current_task().get_name()


results = {}
for city, delay in [("Paris", 0.0), ("Oslo", 0.5)]:
    try:
        results[city] = await asyncio.wait_for(slow_lookup(city, delay), timeout=0.05)
    except asyncio.TimeoutError:
        results[city] = "timeout"

fast = asyncio.create_task(slow_lookup("Tokyo", 0.01), name="fast")
slow = asyncio.create_task(slow_lookup("Cairo", 1.0), name="slow")
done, pending = await asyncio.wait({fast, slow}, return_when=asyncio.FIRST_COMPLETED)
winner = done.pop()
for t in pending:
    t.cancel()
outcomes = await asyncio.gather(*pending, return_exceptions=True)

background = asyncio.create_task(asyncio.sleep(10))
await asyncio.sleep(0)
background.cancel()
try:
    await background
except asyncio.CancelledError:
    bg_state = "cancelled" if background.cancelled() else "other"

try:
    async with asyncio.timeout(0.02):
        await asyncio.sleep(1)
    block = "finished"
except TimeoutError:
    block = "timed out"

caught_by_exception = None
t = asyncio.create_task(asyncio.sleep(5))
await asyncio.sleep(0)
t.cancel()
try:
    try:
        await t
    except Exception:
        caught_by_exception = True
except asyncio.CancelledError:
    caught_by_exception = False

print(results, winner.get_name(), cleanups)
return {
    "results": results,
    "winner": [winner.get_name(), winner.result()],
    "pending_outcomes": [type(o).__name__ for o in outcomes],
    "cleanups": sorted(cleanups),
    "bg_state": bg_state,
    "block": block,
    "alias": asyncio.TimeoutError is TimeoutError,
    "caught_by_exception": caught_by_exception,
    "task_name": await asyncio.create_task(named(), name="namer"),
    "is_base": issubclass(asyncio.CancelledError, Exception),
}

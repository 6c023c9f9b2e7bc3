# description: Wait for weather lookups with asyncio.wait and a timeout, then cancel what is pending
# value: {"done": [["Paris", 18.0], ["Tokyo", 24.0]], "late": ["Cairo"], "cancelled": [true]}
import asyncio

async def slow(city):
    if city == "Cairo":
        await asyncio.Event().wait()
    return await tools.get_weather(city=city)

tasks = {asyncio.create_task(slow(c)): c for c in ["Paris", "Cairo", "Tokyo"]}
done, pending = await asyncio.wait(tasks, timeout=0.5, return_when=asyncio.ALL_COMPLETED)
for task in pending:
    task.cancel()
results = sorted((tasks[t], t.result()["celsius"]) for t in done)
late = sorted(tasks[t] for t in pending)
await asyncio.gather(*pending, return_exceptions=True)
return {"done": results, "late": late, "cancelled": [t.cancelled() for t in pending]}

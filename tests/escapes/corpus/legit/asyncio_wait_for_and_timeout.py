# value: ["fast", "timed out"]
import asyncio
out = [await asyncio.wait_for(asyncio.sleep(0, "fast"), 5)]
try:
    async with asyncio.timeout(0.01):
        await asyncio.sleep(1)
except TimeoutError:
    out.append("timed out")
return out

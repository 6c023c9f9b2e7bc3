# value: [0, 2, 4]
import asyncio
async def evens(n):
    for i in range(n):
        await asyncio.sleep(0)
        if i % 2 == 0:
            yield i
out = []
async for value in evens(5):
    out.append(value)
return out

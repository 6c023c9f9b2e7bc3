# value: [0, 1, 2, 3, 4]
import asyncio
gate = asyncio.Semaphore(2)
done = []
async def work(i):
    async with gate:
        await asyncio.sleep(0)
        done.append((await tools.echo(i=i))["i"])
async with asyncio.TaskGroup() as group:
    for i in range(5):
        group.create_task(work(i))
return sorted(done)

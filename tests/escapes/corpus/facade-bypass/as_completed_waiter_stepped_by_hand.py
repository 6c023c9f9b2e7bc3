# category: facade-bypass
# signal: marker
# expect: refused
# tripwire: stops open
# source: an awaitable that asyncio.as_completed yields, stepped by hand with send(None), gives the future it sleeps on; the future's loop starts a shell
import asyncio
async def slow():
    await asyncio.sleep(0.05)
    return 1
waiter = next(iter(asyncio.as_completed([slow()])))
future = waiter.send(None)
loop = future.get_loop()
await loop.subprocess_shell(asyncio.SubprocessProtocol, "touch {MARKER_PATH}")
return "done"

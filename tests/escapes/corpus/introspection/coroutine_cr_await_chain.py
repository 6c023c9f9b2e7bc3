# category: introspection
# signal: leak
# leak: <frame|<coroutine
# expect: refused
# tripwire: harmless (it only discloses interpreter internals, judged with the language layer on)
# source: pyjail coroutine walk through cr_await to the awaited coroutine and its frame
import asyncio
async def inner():
    await asyncio.sleep(0.2)
async def outer():
    await inner()
c = outer()
t = asyncio.create_task(c)
await asyncio.sleep(0.05)
r = repr(getattr(getattr(c, "cr_await"), "cr_frame"))
await t
return r

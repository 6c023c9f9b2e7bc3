# category: introspection
# signal: leak
# leak: <coroutine|<_UnixSelectorEventLoop|<frame
# expect: refused
# tripwire: harmless (it only discloses interpreter internals, judged with the language layer on)
# source: pyjail asyncio route: the object the loop hands a done callback, walked to its coroutine and loop
import asyncio
got = []
async def w():
    return 1
t = asyncio.create_task(w())
t.add_done_callback(got.append)
await t
await asyncio.sleep(0)
x = got[0]
return [repr(getattr(x, n)()) for n in ["get_coro", "get_loop", "get_stack"]]

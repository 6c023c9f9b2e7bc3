# category: dynamic-code
# signal: leak
# leak: <_UnixSelectorEventLoop|<Task
# expect: refused
# tripwire: harmless (no audited event; judged with the language layer on)
# source: pyjail asyncio route: a generator made awaitable with types.coroutine yields to the task step and receives what it sends
import types
@types.coroutine
def g():
    x = yield None
    return repr(x)
return await g()

# category: introspection
# signal: leak
# leak: <class 'traceback'>
# plain: skip (a leak is judged only with the language layer on)
# tripwire: harmless (no audited event; the harm is the disclosure of a class the runtime withholds, judged with the language layer on)
# source: variant of introspection/exit_traceback_hands_traceback_class through AsyncExitStack.push_async_exit, with a program object's __aexit__ and with a bare coroutine function, both handed the third exit detail by the stack's unwinding
import contextlib
out = []
class ACM:
    async def __aexit__(self, kind, error, tb):
        out.append("aexit " + repr(type(tb)))
        return True
async def callback(kind, error, tb):
    out.append("callback " + repr(type(tb)))
    return True
async with contextlib.AsyncExitStack() as stack:
    stack.push_async_exit(ACM())
    stack.push_async_exit(callback)
    raise ValueError("x")
return out

# category: facade-bypass
# signal: leak
# leak: traceback object
# plain: skip (a leak is judged only with the language layer on)
# tripwire: harmless (no audited event; the harm is the disclosure of a real traceback, judged with the language layer on)
# source: a public attribute is read natively, never through the guard, so super(type(s), s).push and the real base's push bound to the façade's stack skip any check the façade put in a public override; the exit stack's check is in _push_exit_callback, which every public method of the base calls on self, so a callback pushed past the façade is still handed no traceback (a real one leads to frames and their globals)
import contextlib
got = []
def seen(kind, value, traceback):
    got.append(repr(traceback))
    return False
class Exits:
    def __enter__(self):
        return self
    def __exit__(self, kind, value, traceback):
        return seen(kind, value, traceback)
try:
    with contextlib.ExitStack() as stack:
        super(type(stack), stack).push(seen)
        super(type(stack), type(stack)).push(stack, seen)
        super(type(stack), stack).enter_context(Exits())
        raise ValueError("x")
except ValueError:
    pass
async def seen_async(kind, value, traceback):
    got.append(repr(traceback))
    return False
try:
    async with contextlib.AsyncExitStack() as stack:
        try:
            push = super(type(stack), stack).push_async_exit
        except AttributeError:
            push = stack.push_async_exit  # unprotected, the class is the real one
        push(seen_async)
        raise ValueError("y")
except ValueError:
    pass
return " ".join(got)

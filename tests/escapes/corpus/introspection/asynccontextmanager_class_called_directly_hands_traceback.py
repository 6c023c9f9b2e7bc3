# category: introspection
# signal: leak
# leak: traceback at line \d+
# expect: refused
# plain: skip (a leak is judged only with the language layer on)
# tripwire: harmless (no audited event; the harm is a real traceback object, a runtime object the program must not hold, judged with the language layer on)
# source: type() of what contextlib.asynccontextmanager returns is the real contextlib._AsyncGeneratorContextManager; called directly it takes any callable and does not wrap the object it returns, so its __aexit__ awaits that object's athrow(type, value, traceback) with the real traceback
import contextlib
out = []
class Steps:
    def __anext__(self):
        return self.entered()
    async def entered(self):
        return "entered"
    async def athrow(self, kind, error=None, tb=None):
        out.append("traceback at line " + str(tb.tb_lineno) + ", lasti " + str(tb.tb_lasti))
        raise StopAsyncIteration
@contextlib.asynccontextmanager
async def managed():
    yield
Manager = type(managed())
async with Manager(Steps, (), {}):
    1 / 0
return out

# category: hand-stepped-coroutines
# signal: leak
# leak: <Task pending name=|<Future pending
# expect: refused
# tripwire: stops object.__getattr__ cr_code
# source: collections.abc.Generator.__next__ (plain Python, `return self.send(None)`) is self-checked when read from the library class, but read from the program's own subclass the guard hands out the raw inherited function, which runs with any self: it steps a coroutine awaiting a façade task by hand and returns the real asyncio Task, and steps asyncio.sleep() to its real Future (rule 5)
import asyncio
import collections.abc
class G(collections.abc.Generator):
    def send(self, value):
        return value
    def throw(self, *args):
        return None
step = G.__next__
async def idle():
    await asyncio.sleep(0)
wrapped = asyncio.create_task(idle())
async def waiting():
    await wrapped
task = step(waiting())
future = step(asyncio.sleep(3))
return repr(task) + " " + repr(future)

# category: hand-stepped-coroutines
# signal: leak
# leak: <frame at|<traceback object at|<Task |<_asyncio\.Task|<Future
# plain: skip (a leak is judged only with the language layer on)
# tripwire: harmless (no audited event; the harm is a runtime object handed to the program's own send and throw, judged with the language layer on)
# source: asyncio takes any collections.abc.Coroutine for a coroutine, so create_task, gather and wait_for wrap a program's object in a real Task, which calls its send with what it was woken with and its throw with the CancelledError itself, an exception handed over as an argument rather than through except ... as
import asyncio
import collections.abc
seen = []
class Stepped(collections.abc.Coroutine):
    def __init__(self):
        self.steps = 0
    def send(self, value):
        seen.append(repr(value))
        self.steps += 1
        if self.steps > 20:
            raise StopIteration("done")
        return None
    def throw(self, *args):
        for arg in args:
            seen.append(repr(arg))
            for name in ("__context__", "__cause__", "__traceback__"):
                try:
                    seen.append(repr(getattr(arg, name)))
                except AttributeError as error:
                    seen.append(type(error).__name__)
        raise StopIteration("thrown")
    def close(self):
        pass
    def __await__(self):
        return iter(())
task = asyncio.create_task(Stepped())
await asyncio.sleep(0)
task.cancel("stop")
seen.append(repr(await task))
seen.append(repr(await asyncio.gather(Stepped())))
seen.append(repr(await asyncio.wait_for(Stepped(), 5)))
return seen

# category: output
# signal: leak
# leak: rewritten by the scheduler after return
# plain: skip (checks the sandbox's snapshot of the return value)
# tripwire: harmless (no audited event: the event loop compares its timers)
# source: a float subclass given to asyncio.sleep becomes a timer's deadline, and the event loop's own comparison of it runs the program's __ge__ after the program returned
import asyncio
result = ["computed"]
state = {"armed": False}
class When(float):
    def __radd__(self, other):
        return When(float(other) + float(self))
    def __ge__(self, other):
        if state["armed"]:
            result[0] = "rewritten by the scheduler after return"
        return float(self) >= other
async def sleeper():
    await asyncio.sleep(When(30.0))
asyncio.create_task(sleeper())
await asyncio.sleep(0)
state["armed"] = True
return result

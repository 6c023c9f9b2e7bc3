# category: advisories
# signal: leak
# leak: late call answered
# plain: skip (a leak is judged only with the language layer on)
# tripwire: harmless (no audited event: an async generator's finally run by the event loop's shutdown)
# source: smolagents issue 2395 (object lifecycle hijacking: a finalizer runs the program's code after its step has ended); a program cannot define __del__, but an async generator left suspended has its finally run by the event loop's shutdown after the program returned, and it calls a tool from there
def closed_late():
    try:
        yield 1
    finally:
        print("a generator's finally after the return")
async def called_late():
    try:
        yield 1
    finally:
        answer = await tools.echo(late=True)
        print("late call answered", answer)
held = closed_late()
next(held)
pending = called_late()
await anext(pending)
return "returned"

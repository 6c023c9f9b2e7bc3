# category: exhaustion
# signal: limit
# kinds: timeout
# plain: skip (never ends)
# tripwire: harmless (the host's wall clock ends it)
# source: a loop that yields to the event loop forever
import asyncio
while True:
    await asyncio.sleep(0)

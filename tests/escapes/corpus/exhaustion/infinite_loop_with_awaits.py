# category: exhaustion
# signal: limit
# kinds: timeout
# plain: skip (never ends)
# source: a loop that yields to the event loop forever
import asyncio
while True:
    await asyncio.sleep(0)

# category: exhaustion
# signal: limit
# kinds: timeout
# plain: skip (never ends)
# source: sleeping uses no CPU, so only the wall-clock limit ends it
import asyncio
await asyncio.sleep(10**6)

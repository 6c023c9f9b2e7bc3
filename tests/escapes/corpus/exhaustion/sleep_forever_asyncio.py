# category: exhaustion
# signal: limit
# kinds: timeout
# plain: skip (never ends)
# tripwire: harmless (the host's wall clock ends it)
# source: sleeping uses no CPU, so only the wall-clock limit ends it
import asyncio
await asyncio.sleep(10**6)

# category: exhaustion
# signal: limit
# kinds: exception worker-exit timeout
# plain: skip (never ends)
# tripwire: harmless (the host's wall clock ends it)
# source: many sleeping tasks inside the allowed asyncio
import asyncio
await asyncio.gather(*[asyncio.sleep(10**6) for _ in range(200000)])

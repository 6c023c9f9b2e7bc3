# category: exhaustion
# signal: limit
# kinds: timeout
# plain: skip (never ends)
# source: waiting on something that never happens
import asyncio
await asyncio.Event().wait()

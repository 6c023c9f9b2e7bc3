# category: exhaustion
# signal: limit
# kinds: timeout
# plain: skip (never ends)
# tripwire: harmless (the host's wall clock ends it)
# source: waiting on something that never happens
import asyncio
await asyncio.Event().wait()

# category: state
# signal: state
# expect: refused
# tripwire: harmless (a fresh child per run: the changed state dies with it)
# source: replacing asyncio.sleep for later programs
import asyncio
asyncio.sleep = lambda *args, **kwargs: "poisoned"

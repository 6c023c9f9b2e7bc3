# category: state
# signal: state
# expect: refused
# source: replacing asyncio.sleep for later programs
import asyncio
asyncio.sleep = lambda *args, **kwargs: "poisoned"

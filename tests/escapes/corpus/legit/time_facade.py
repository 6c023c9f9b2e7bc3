# value: true
import asyncio
import time
start = time.monotonic()
await asyncio.sleep(0.01)
return time.monotonic() > start and time.perf_counter() > 0 and time.time() > 0

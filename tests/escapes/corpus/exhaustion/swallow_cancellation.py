# category: exhaustion
# signal: limit
# kinds: timeout
# plain: skip (never ends)
# tripwire: harmless (the host's wall clock ends it)
# source: catching every exception, cancellation included, to survive a soft stop
import asyncio
while True:
    try:
        await asyncio.sleep(10**6)
    except BaseException:
        pass

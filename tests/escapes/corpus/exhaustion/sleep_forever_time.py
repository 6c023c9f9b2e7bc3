# category: exhaustion
# signal: limit
# kinds: timeout
# plain: skip (never ends)
# tripwire: harmless (the host's wall clock ends it)
# source: a blocking sleep that never returns to the event loop
import time
time.sleep(10**6)

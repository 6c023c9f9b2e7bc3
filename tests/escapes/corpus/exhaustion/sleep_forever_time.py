# category: exhaustion
# signal: limit
# kinds: timeout
# plain: skip (never ends)
# source: a blocking sleep that never returns to the event loop
import time
time.sleep(10**6)

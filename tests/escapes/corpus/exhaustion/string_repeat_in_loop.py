# category: exhaustion
# signal: limit
# kinds: exception worker-exit timeout
# applies: all os
# plain: skip (exhausts the machine's memory)
# tripwire: misses (memory: only the OS layer's address-space limit bounds it)
# source: doubling a string until memory runs out
text = "x"
while True:
    text = text + text

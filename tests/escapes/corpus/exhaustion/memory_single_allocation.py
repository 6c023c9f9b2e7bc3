# category: exhaustion
# signal: limit
# kinds: exception worker-exit
# applies: all os
# plain: skip (exhausts the machine's memory)
# tripwire: misses (memory: only the OS layer's address-space limit bounds it)
# source: one allocation larger than the address-space limit
return len("x" * (8 * 1024 * 1024 * 1024))

# category: exhaustion
# signal: limit
# kinds: exception worker-exit
# applies: both os
# plain: skip (exhausts the machine's memory)
# source: one allocation larger than the address-space limit
return len("x" * (8 * 1024 * 1024 * 1024))

# category: exhaustion
# signal: limit
# kinds: exception worker-exit
# plain: skip (checks the sandbox's limits)
# tripwire: harmless (the allocation fails at once)
# source: an allocation no machine can satisfy fails at once in every mode
return len(bytearray(2**50))

# category: exhaustion
# signal: limit
# kinds: exception worker-exit timeout
# applies: all os
# plain: skip (exhausts the machine's memory)
# tripwire: misses (memory: only the OS layer's address-space limit bounds it)
# source: classic memory bomb; needs the address-space rlimit, so not run with the OS layer off
chunks = []
while True:
    chunks.append(bytearray(16 * 1024 * 1024))

# category: exhaustion
# signal: limit
# kinds: exception worker-exit timeout
# applies: both os
# plain: skip (exhausts the machine's memory)
# source: classic memory bomb; needs the address-space rlimit, so not run with the OS layer off
chunks = []
while True:
    chunks.append(bytearray(16 * 1024 * 1024))

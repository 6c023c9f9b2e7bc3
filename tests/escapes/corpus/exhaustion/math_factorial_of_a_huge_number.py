# category: exhaustion
# signal: limit
# kinds: timeout worker-exit exception
# applies: all os
# plain: skip (never ends)
# tripwire: misses (memory: only the OS layer's address-space limit bounds it)
# source: variant of huge_integer_power: math.factorial of a huge argument, one C call that computes for minutes and grows its result past the memory limit
import math
return math.factorial(10 ** 9) % 7

# category: exhaustion
# signal: limit
# kinds: timeout worker-exit exception
# plain: skip (never ends)
# tripwire: harmless (the host's wall clock ends it)
# source: arbitrary-precision arithmetic that takes hours in C
return (7 ** (10 ** 9)) % 10

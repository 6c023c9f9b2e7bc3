# category: exhaustion
# signal: limit
# kinds: timeout worker-exit exception
# plain: skip (never ends)
# source: arbitrary-precision arithmetic that takes hours in C
return (7 ** (10 ** 9)) % 10

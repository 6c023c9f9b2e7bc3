# category: exhaustion
# signal: limit
# kinds: invalid-output exception output-limit worker-exit
# plain: skip (checks the sandbox's limits)
# tripwire: harmless (the return value check)
# source: nesting deep enough to exhaust a recursive checker or encoder
value = []
for _ in range(500000):
    value = [value]
return value

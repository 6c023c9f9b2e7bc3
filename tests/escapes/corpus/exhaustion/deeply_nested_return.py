# category: exhaustion
# signal: limit
# kinds: invalid-output exception output-limit worker-exit
# plain: skip (checks the sandbox's limits)
# source: nesting deep enough to exhaust a recursive checker or encoder
value = []
for _ in range(500000):
    value = [value]
return value

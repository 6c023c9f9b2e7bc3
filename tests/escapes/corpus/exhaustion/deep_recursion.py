# category: exhaustion
# signal: limit
# kinds: exception worker-exit
# plain: skip (checks the sandbox's limits)
# tripwire: harmless (the interpreter's recursion limit)
# source: classic; unbounded recursion
def dive(n):
    return dive(n + 1)
dive(0)

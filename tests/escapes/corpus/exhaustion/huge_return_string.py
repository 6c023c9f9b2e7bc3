# category: exhaustion
# signal: limit bounded
# kinds: output-limit
# plain: skip (checks the sandbox's limits)
# tripwire: harmless (the host's output caps)
# source: a return value larger than the value cap
return "x" * 30_000_000

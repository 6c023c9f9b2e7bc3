# category: exhaustion
# signal: limit bounded
# kinds: output-limit exception timeout
# plain: skip (checks the sandbox's limits)
# tripwire: harmless (the host's wall clock and output caps)
# source: a return value made of many small items
return list(range(3_000_000))

# category: bridge
# signal: liveness bounded
# kinds: exception worker-exit output-limit
# plain: skip (checks the sandbox's output caps)
# tripwire: harmless (the host's frame cap)
# source: an error message far larger than any output cap
raise ValueError("x" * 30_000_000)

# category: output
# signal: liveness bounded
# kinds: output-limit timeout
# plain: skip (checks the sandbox's output validation)
# tripwire: harmless (the runtime's and the host's output checks)
# source: a flat dict just past the value cap, with a million short keys
return {str(i): i for i in range(1_000_000)}

# category: output
# signal: liveness bounded
# kinds: exception worker-exit timeout
# plain: skip (checks the sandbox's traceback formatting)
# tripwire: harmless (the runtime's and the host's output checks)
# source: thousands of chained exceptions: recursive formatting runs out of stack
error = None
for i in range(5000):
    try:
        raise ValueError(i) from error
    except ValueError as caught:
        error = caught
raise error

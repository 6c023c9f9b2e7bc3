# category: output
# signal: liveness bounded
# kinds: exception worker-exit timeout
# plain: skip (checks the sandbox's traceback formatting)
# tripwire: harmless (the runtime's and the host's output checks)
# source: an exception group with a hundred thousand members
raise ExceptionGroup("wide", [ValueError(str(i)) for i in range(100000)])

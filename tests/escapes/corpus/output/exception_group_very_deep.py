# category: output
# signal: liveness bounded
# kinds: exception worker-exit timeout
# plain: skip (checks the sandbox's traceback formatting)
# tripwire: harmless (the runtime's and the host's output checks)
# source: exception groups nested thousands deep
group = ValueError("leaf")
for _ in range(3000):
    group = ExceptionGroup("level", [group])
raise group

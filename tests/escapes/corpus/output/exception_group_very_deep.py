# category: output
# signal: liveness bounded
# kinds: exception worker-exit timeout
# plain: skip (checks the sandbox's traceback formatting)
# source: exception groups nested thousands deep
group = ValueError("leaf")
for _ in range(3000):
    group = ExceptionGroup("level", [group])
raise group

# category: exhaustion
# signal: limit
# kinds: timeout worker-exit
# plain: skip (never ends)
# tripwire: harmless (the host's wall clock ends it)
# source: classic; a busy loop
while True:
    pass

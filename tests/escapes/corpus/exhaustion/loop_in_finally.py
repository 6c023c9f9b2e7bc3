# category: exhaustion
# signal: limit
# kinds: timeout worker-exit
# plain: skip (never ends)
# tripwire: harmless (the host's wall clock ends it)
# source: a busy loop in a finally block survives anything raised into the body
try:
    while True:
        pass
finally:
    while True:
        pass

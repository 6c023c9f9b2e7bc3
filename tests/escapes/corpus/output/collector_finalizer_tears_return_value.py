# category: output
# signal: leak liveness
# leak: "i": 0\}, \{"i": "late"\}
# plain: skip (checks the sandbox's snapshot of the return value)
# tripwire: harmless (no audit event: a generator's finally run by the collector)
# source: a generator left in a reference cycle runs its finally while the runtime copies the returned value, so the result mixes old and new rows
rows = [{"i": 0} for _ in range(5000)]
def spoiler():
    me = [None]
    def gen():
        try:
            yield me
        finally:
            for r in rows:
                r["i"] = "late"
    g = gen()
    me[0] = g
    next(g)
scratch = [[] for _ in range(2000)]
scratch = None
spoiler()
return rows

# category: host-cost
# signal: host limit liveness
# kinds: ok exception compile timeout
# repeat: 200
# plain: skip (checks the host's compile work)
# tripwire: harmless (the host's work budgets hold in every mode; the program needs no watched event)
# source: chains of subscripts hundreds deep; each guarded subscript was located by walking the whole chain below it (quadratic in the depth), and the host compiled long programs itself
r = x[k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k][k]

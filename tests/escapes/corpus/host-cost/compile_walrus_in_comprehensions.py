# category: host-cost
# signal: host limit liveness
# kinds: ok exception compile
# plain: skip (checks the host's compile work)
# tripwire: harmless (the host's work budgets hold in every mode; the program needs no watched event)
# source: a few hundred bytes of comprehensions nested with walrus targets; the policy's scope walk re-walked each walrus once per walrus above it (exponential in the depth)
y = [1]
r = [(w17 := [(w16 := [(w15 := [(w14 := [(w13 := [(w12 := [(w11 := [(w10 := [(w9 := [(w8 := [(w7 := [(w6 := [(w5 := [(w4 := [(w3 := [(w2 := [(w1 := [(w0 := x) for x in y]) for x in y]) for x in y]) for x in y]) for x in y]) for x in y]) for x in y]) for x in y]) for x in y]) for x in y]) for x in y]) for x in y]) for x in y]) for x in y]) for x in y]) for x in y]) for x in y]) for x in y]
return 1

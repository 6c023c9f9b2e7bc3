# category: host-cost
# signal: host limit liveness
# kinds: ok exception compile
# plain: skip (checks the host's compile work)
# tripwire: harmless (the host's work budgets hold in every mode; the program needs no watched event)
# source: lambdas nested with walrus targets: the same exponential scope walk through lambda bodies
r = (lambda: (w17 := (lambda: (w16 := (lambda: (w15 := (lambda: (w14 := (lambda: (w13 := (lambda: (w12 := (lambda: (w11 := (lambda: (w10 := (lambda: (w9 := (lambda: (w8 := (lambda: (w7 := (lambda: (w6 := (lambda: (w5 := (lambda: (w4 := (lambda: (w3 := (lambda: (w2 := (lambda: (w1 := (lambda: (w0 := 1))))))))))))))))))))))))))))))))))))
return 1

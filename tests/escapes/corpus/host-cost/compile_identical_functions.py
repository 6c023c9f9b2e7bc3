# category: host-cost
# signal: host limit liveness
# kinds: ok exception compile timeout
# repeat: 6000
# plain: skip (checks the host's compile work)
# tripwire: harmless (the host's work budgets hold in every mode; the program needs no watched event)
# source: thousands of identical functions: CPython's compiler merges equal code constants through colliding hashes (quadratic), holding the GIL; a host that compiles a long program in a thread still stalls its loop
def f(a, b):
    return a + b

# category: exhaustion
# signal: limit
# kinds: worker-exit exception
# plain: skip (crashes the interpreter that runs it)
# tripwire: harmless (no audited event; the C stack overflows inside the child)
# source: a million filter() objects chained over one another: consuming the chain recurses in C once per level, below the recursion limit's view, and CPython's C stack overflows (SIGSEGV); only the child that ran it dies, and the run ends as worker-exit
x = iter([1])
for _ in range(10**6):
    x = filter(None, x)
return list(x)

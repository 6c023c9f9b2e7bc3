# category: dynamic-code
# signal: liveness
# expect: refused
# plain: skip (reads the test process's stdin)
# tripwire: harmless (the child has no standard input: input() fails before its audit event)
# source: input() reads stdin, which the child must not have
return input("?")

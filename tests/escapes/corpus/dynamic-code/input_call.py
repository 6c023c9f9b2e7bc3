# category: dynamic-code
# signal: liveness
# expect: refused
# plain: skip (reads the test process's stdin)
# source: input() reads stdin, which the child must not have
return input("?")

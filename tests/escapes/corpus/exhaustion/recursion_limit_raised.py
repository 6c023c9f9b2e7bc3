# category: exhaustion
# signal: limit
# kinds: exception worker-exit timeout
# expect: refused
# plain: skip (crashes the interpreter)
# source: raising the recursion limit so that recursion overflows the C stack
import sys
sys.setrecursionlimit(10**7)
def dive(n):
    return dive(n + 1)
dive(0)

# category: exhaustion
# signal: limit
# kinds: exception worker-exit timeout
# expect: refused
# plain: skip (crashes the interpreter)
# tripwire: harmless (the crash or the host's wall clock ends only its own child)
# source: raising the recursion limit so that recursion overflows the C stack
import sys
sys.setrecursionlimit(10**7)
def dive(n):
    return dive(n + 1)
dive(0)

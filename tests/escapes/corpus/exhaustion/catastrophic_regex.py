# category: exhaustion
# signal: limit
# kinds: timeout worker-exit
# plain: skip (never ends)
# tripwire: harmless (the host's wall clock ends it)
# source: exponential backtracking inside the C regex engine, which never checks for signals
import re
re.match(r"(a+)+$", "a" * 64 + "b")

# category: exhaustion
# signal: limit
# kinds: timeout worker-exit
# plain: skip (never ends)
# source: exponential backtracking inside the C regex engine, which never checks for signals
import re
re.match(r"(a+)+$", "a" * 64 + "b")

# category: exhaustion
# signal: limit
# kinds: timeout worker-exit
# plain: skip (never ends)
# tripwire: harmless (the host's wall clock ends it)
# source: nested quantifiers over alternation
import re
re.findall(r"(x|x|xx)*y", "x" * 60)

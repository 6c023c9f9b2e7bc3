# category: exhaustion
# signal: limit
# kinds: timeout worker-exit
# plain: skip (never ends)
# tripwire: harmless (the host's wall clock ends it)
# source: variant of infinite_loop and catastrophic_regex: a C loop that never returns to bytecode and allocates nothing (a zero-length deque consuming itertools.count), so no Python-level signal handler or check between instructions runs
import collections, itertools
collections.deque(itertools.count(), maxlen=0)

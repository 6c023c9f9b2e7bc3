# category: state
# signal: state
# expect: refused
# tripwire: harmless (a fresh child per run: the changed state dies with it)
# source: patching a class exported by a façade
import collections
collections.Counter.most_common = lambda self, n=None: "poisoned"

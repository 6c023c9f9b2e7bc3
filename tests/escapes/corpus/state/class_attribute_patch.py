# category: state
# signal: state
# expect: refused
# source: patching a class exported by a façade
import collections
collections.Counter.most_common = lambda self, n=None: "poisoned"

# value: [[["a", 3], ["b", 2]], [[1, "x"], [2, "y"]], [0, 1, 2], {"k": [1, 2]}]
import collections
import itertools
counts = collections.Counter("aaabb").most_common(2)
pairs = [list(p) for p in zip([1, 2], "xy")]
grouped = collections.defaultdict(list)
for v in [1, 2]:
    grouped["k"].append(v)
return [[list(c) for c in counts], pairs, list(itertools.islice(itertools.count(), 3)), dict(grouped)]

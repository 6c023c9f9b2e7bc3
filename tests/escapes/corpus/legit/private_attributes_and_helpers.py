# value: [3, [1, 2, 3], true, false, 10, "7 items", 5, ["_count", 0], 42]
_DEFAULT_LIMIT = 10
def _normalise(items):
    return sorted(set(items))
class Inventory:
    _instances = 0
    def __init__(self, items, limit=_DEFAULT_LIMIT):
        self._items = _normalise(items)
        self._limit = limit
        self._count = 0
        Inventory._instances += 1
    def _bump(self):
        self._count += 1
        return self._count
    def add(self, item):
        if len(self._items) < self._limit:
            self._items.append(item)
            self._items = _normalise(self._items)
        return self._bump()
    @property
    def items(self):
        return list(self._items)
inv = Inventory([3, 1, 2, 2])
inv.add(3)
inv.add(2)
_tmp = inv.add(1)
cache = Inventory([])
setattr(cache, "_scratch", 5)
had = hasattr(cache, "_scratch")
del cache._scratch
gone = not hasattr(cache, "_scratch")
big = Inventory(range(7), limit=20)
label = f"{len(big._items)} items"
_pair = ["_count", getattr(big, "_count")]
_answer = (lambda value=inv._count: value * 14)()
return [_tmp, inv.items, had, not gone, inv._limit, label, Inventory._instances - 2 + 4, _pair, _answer]

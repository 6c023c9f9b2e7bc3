# value: [42, ["double"], [3, 4], "History(4 items)", {"a": 1, "b": 2}, 0, true, [["a", 1], ["b", 2]], {"a": 3, "b": 1, "c": 1}, 3, {"key": 1}, ["c", "b", "a"], 1, true]
import collections
import collections.abc
class Registry(dict):
    def register(self, name):
        def decorate(fn):
            self[name] = fn
            return fn
        return decorate
class History(list):
    def last(self, n=1):
        return self[-n:]
    def __repr__(self):
        return f"History({len(self)} items)"
class Config(collections.abc.Mapping):
    def __init__(self, **values):
        self.values = dict(values)
    def __getitem__(self, key):
        return self.values[key]
    def __iter__(self):
        return iter(self.values)
    def __len__(self):
        return len(self.values)
class Counts(collections.abc.MutableMapping):
    def __init__(self):
        self.data = {}
    def __getitem__(self, key):
        return self.data.get(key, 0)
    def __setitem__(self, key, value):
        self.data[key] = value
    def __delitem__(self, key):
        del self.data[key]
    def __iter__(self):
        return iter(self.data)
    def __len__(self):
        return len(self.data)
class Lower(collections.UserDict):
    def __setitem__(self, key, value):
        super().__setitem__(key.lower(), value)
class Window(collections.abc.Sequence):
    def __init__(self, items):
        self.items = list(items)
    def __getitem__(self, index):
        return self.items[index]
    def __len__(self):
        return len(self.items)
registry = Registry()
@registry.register("double")
def double(x):
    return 2 * x
history = History([1, 2, 3])
history.append(4)
config = Config(a=1, b=2)
counts = Counts()
for word in "a b a c a".split():
    counts[word] += 1
lower = Lower()
lower["KEY"] = 1
window = Window("abc")
return [
    registry["double"](21), sorted(registry), history.last(2), repr(history),
    dict(config), config.get("c", 0), "a" in config, sorted(list(pair) for pair in config.items()),
    dict(counts), len(counts), dict(lower), list(reversed(window)), window.index("b"), "c" in window,
]

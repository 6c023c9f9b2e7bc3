# description: Aggregate weather readings with a small vector class
# value: {"total": "Vec(66.0, 167, 46.0)", "avg": [22.0, 55.667, 15.333], "scaled": "Vec(2, 4)", "diff": "Vec(4, 3)", "norm": 5.0, "len": 3, "slice": "Vec(167, 46.0)", "contains": true, "bool": [false, true], "eq": true, "first": 66.0}
class Vec:
    def __init__(self, *xs):
        self.xs = list(xs)

    def __len__(self):
        return len(self.xs)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return Vec(*self.xs[i])
        return self.xs[i]

    def __setitem__(self, i, v):
        self.xs[i] = v

    def __iter__(self):
        return iter(self.xs)

    def __contains__(self, v):
        return v in self.xs

    def __add__(self, other):
        return Vec(*(a + b for a, b in zip(self, other)))

    def __sub__(self, other):
        return self + (-other)

    def __neg__(self):
        return Vec(*(-a for a in self))

    def __mul__(self, k):
        return Vec(*(a * k for a in self))

    __rmul__ = __mul__

    def __truediv__(self, k):
        return Vec(*(round(a / k, 3) for a in self))

    def __abs__(self):
        return round(sum(a * a for a in self) ** 0.5, 3)

    def __bool__(self):
        return any(self.xs)

    def __eq__(self, other):
        return isinstance(other, Vec) and self.xs == other.xs

    def __iadd__(self, other):
        self.xs = [a + b for a, b in zip(self.xs, other)]
        return self

    def __repr__(self):
        return f"Vec({', '.join(map(str, self.xs))})"

total = Vec(0, 0, 0)
cities = ["London", "Paris", "Cairo"]
for c in cities:
    w = await tools.get_weather(city=c)
    total += Vec(w["celsius"], w["humidity"], w["wind_kph"])
avg = total / len(cities)
return {
    "total": repr(total), "avg": list(avg), "scaled": repr(2 * Vec(1, 2)), "diff": repr(Vec(5, 5) - Vec(1, 2)),
    "norm": abs(Vec(3, 4)), "len": len(total), "slice": repr(total[1:]), "contains": 26.0 in avg or 55.667 in avg,
    "bool": [bool(Vec(0, 0)), bool(Vec(0, 1))], "eq": Vec(1) == Vec(1), "first": total[0],
}

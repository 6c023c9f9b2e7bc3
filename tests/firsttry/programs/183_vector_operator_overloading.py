# description: Compute distances between warehouse sites and cities with a Vector class
# value: {"centre": "Vec(11.085, 47.5775)", "far": "Cairo", "dot": 2516.29, "acc_eq": true, "neg": "Vec(-2.35, -48.86)", "floor": "Vec(1, 5)", "scaled": "Vec(6, 12)", "unpacked": [2.35, -2.64], "len_idx": [2, 30.04], "zero": false, "unique": 1, "warm": ["Paris", "Cairo"], "dist_km": {"London": 0, "Paris": 392, "Oslo": 1515, "Cairo": 4207}}
import math


class Vec:
    __slots__ = ("x", "y")

    def __init__(self, x=0.0, y=0.0):
        self.x, self.y = float(x), float(y)

    def __add__(self, o):
        return Vec(self.x + o.x, self.y + o.y)

    def __sub__(self, o):
        return Vec(self.x - o.x, self.y - o.y)

    def __mul__(self, k):
        return Vec(self.x * k, self.y * k)

    __rmul__ = __mul__

    def __truediv__(self, k):
        return Vec(self.x / k, self.y / k)

    def __floordiv__(self, k):
        return Vec(self.x // k, self.y // k)

    def __matmul__(self, o):
        return self.x * o.x + self.y * o.y

    def __neg__(self):
        return Vec(-self.x, -self.y)

    def __abs__(self):
        return math.hypot(self.x, self.y)

    def __iter__(self):
        yield self.x
        yield self.y

    def __getitem__(self, i):
        return (self.x, self.y)[i]

    def __len__(self):
        return 2

    def __eq__(self, o):
        return isinstance(o, Vec) and tuple(self) == tuple(o)

    def __hash__(self):
        return hash(tuple(self))

    def __bool__(self):
        return bool(self.x or self.y)

    def __iadd__(self, o):
        self.x += o.x
        self.y += o.y
        return self

    def __repr__(self):
        return f"Vec({self.x:g}, {self.y:g})"


CITY = {"London": Vec(0, 51.5), "Paris": Vec(2.35, 48.86), "Oslo": Vec(10.75, 59.91), "Cairo": Vec(31.24, 30.04)}
weather = {c: await tools.get_weather(city=c) for c in CITY}
centre = sum(CITY.values(), Vec()) / len(CITY)
far = max(CITY, key=lambda c: abs(CITY[c] - centre))
acc = Vec()
for v in CITY.values():
    acc += v
warm = [c for c in CITY if weather[c]["celsius"] > 15]
x, y = CITY["Paris"] - CITY["London"]
return {
    "centre": repr(centre),
    "far": far,
    "dot": round(CITY["Paris"] @ CITY["London"], 3),
    "acc_eq": acc == sum(CITY.values(), Vec()),
    "neg": repr(-CITY["Paris"]),
    "floor": repr(CITY["Oslo"] // 10),
    "scaled": repr(2 * Vec(1, 2) * 3),
    "unpacked": [round(x, 2), round(y, 2)],
    "len_idx": [len(centre), CITY["Cairo"][1]],
    "zero": bool(Vec()),
    "unique": len({Vec(1, 2), Vec(1.0, 2.0)}),
    "warm": warm,
    "dist_km": {c: round(abs(CITY[c] - CITY["London"]) * 111) for c in CITY},
}

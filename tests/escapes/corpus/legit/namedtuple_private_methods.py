# value: [{"x": 1, "y": 2}, [1, 5], ["x", "y"], [3, 4], {"y": 0}, [7, 0], "Point(x=1, y=5)", 2]
from collections import namedtuple
Point = namedtuple("Point", ["x", "y"], defaults=[0])
p = Point(1, 2)
moved = p._replace(y=5)
made = Point._make([3, 4])
class Labelled(Point):
    __slots__ = ()
    def norm1(self):
        return abs(self.x) + abs(self.y)
q = Labelled(7)
return [p._asdict(), list(moved), list(Point._fields), list(made), Point._field_defaults, list(q), repr(moved), len(Labelled._fields)]

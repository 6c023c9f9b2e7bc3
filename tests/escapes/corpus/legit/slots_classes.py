# value: [3, 4, "_hidden", true, 25, "n", "no attribute z"]
class Vec:
    __slots__ = ("x", "y", "_hidden")
    def __init__(self, x, y):
        self.x = x
        self.y = y
        self._hidden = "_hidden"
    def dot(self, other):
        return self.x * other.x + self.y * other.y
class Named(Vec):
    __slots__ = ["name"]
    def __init__(self, x, y, name):
        super().__init__(x, y)
        self.name = name
v = Vec(3, 4)
n = Named(3, 4, "n")
try:
    v.z = 1
    message = "assigned"
except AttributeError:
    message = "no attribute z"
return [v.x, v.y, v._hidden, isinstance(n, Vec), v.dot(n), n.name, message]

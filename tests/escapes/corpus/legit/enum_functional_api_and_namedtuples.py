# value: [["RED", "GREEN", "BLUE"], 2, true, "SAFE", "Perm.R|X", 4, 11, [1, 2], 2, 0, "origin", "point 1,2", "point3 1,2,3", 3]
import collections
import enum
import typing
Color = enum.Enum("Color", "RED GREEN BLUE")
Size = enum.Enum("Size", "S, M, L")
Level = enum.IntEnum("Level", [("LOW", 1), ("HIGH", 10)])
Mode = enum.StrEnum("Mode", {"FAST": "fast", "SAFE": "safe"})
Perm = enum.Flag("Perm", ["R", "W", "X"])
Shape = enum.Enum("Shape", (("CIRCLE", 1), ("SQUARE", 4)))
Unit = enum.Enum("Unit", "KG G", start=10)
Point = collections.namedtuple("Point", "x y")
Point3 = collections.namedtuple("Point3", ["x", "y", "z"], defaults=[0])
def describe(value):
    match value:
        case Point(x=0, y=0):
            return "origin"
        case Point(x, y):
            return f"point {x},{y}"
        case Point3(x, y, z):
            return f"point3 {x},{y},{z}"
    return "other"
p = Point(1, 2)
return [
    [c.name for c in Color], Size.M.value, Level.HIGH > Level.LOW, Mode("safe").name, str(Perm.R | Perm.X),
    Shape.SQUARE.value, Unit.G.value, list(p), p.y, Point3(1, 2).z,
    describe(Point(0, 0)), describe(p), describe(Point3(1, 2, 3)), Point(*[3, 4]).x,
]

# value: ["RED", true, "{\"c\": \"red\"}", ["RED", "GREEN"], true, 201, "OK", "fast", "SAFE", "Perm.R|W", true, 9.8, 2]
import enum
import json
class Color(str, enum.Enum):
    RED = "red"
    GREEN = "green"
    def shout(self):
        return self.value.upper()
class Status(enum.IntEnum):
    OK = 200
    NOT_FOUND = 404
    @property
    def is_error(self):
        return self >= 400
    @classmethod
    def parse(cls, code):
        return cls(int(code))
class Mode(enum.StrEnum):
    FAST = enum.auto()
    SAFE = enum.auto()
class Perm(enum.Flag):
    R = enum.auto()
    W = enum.auto()
    X = enum.auto()
@enum.unique
class Planet(enum.Enum):
    MERCURY = (3.303e23, 2.4397e6)
    EARTH = (5.976e24, 6.37814e6)
    def __init__(self, mass, radius):
        self.mass = mass
        self.radius = radius
    def gravity(self):
        return round(6.673e-11 * self.mass / (self.radius * self.radius), 2)
return [
    Color("red").shout(), Color.GREEN == "green", json.dumps({"c": Color.RED}), [c.name for c in Color],
    Status.parse("404").is_error, Status.OK + 1, Status["OK"].name,
    str(Mode.FAST), Mode("safe").name,
    str(Perm.R | Perm.W), Perm.X in (Perm.R | Perm.X),
    Planet.EARTH.gravity(), len(Planet),
]

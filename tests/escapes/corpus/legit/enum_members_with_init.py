# value: [["MERCURY", 3.303e+23, 2.4397e6], "EARTH", 9.8, true, ["R", "W"], "Perm.R|W", 3, "HIGH"]
import enum
class Planet(enum.Enum):
    MERCURY = (3.303e23, 2.4397e6)
    EARTH = (5.976e24, 6.37814e6)
    def __init__(self, mass, radius):
        self._mass = mass
        self._radius = radius
    @property
    def mass(self):
        return self._mass
    @property
    def surface_gravity(self):
        return 6.673e-11 * self._mass / (self._radius * self._radius)
class Perm(enum.Flag):
    R = 4
    W = 2
    X = 1
class Level(enum.IntEnum):
    LOW = 1
    HIGH = 3
    def _describe(self):
        return self.name
heaviest = max(Planet, key=lambda planet: planet.mass)
both = Perm.R | Perm.W
return [[Planet.MERCURY.name, Planet.MERCURY.mass, Planet.MERCURY._radius], heaviest.name, round(Planet.EARTH.surface_gravity, 1), Perm.R in both, [m.name for m in Perm if m in both], str(both), int(Level.HIGH), Level(3)._describe()]

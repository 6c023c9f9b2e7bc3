# description: Weather snapshot object that memoises derived values with object.__setattr__ in a frozen dataclass
# value: {"snaps": [["Cairo", 25.5, "hot"], ["Oslo", 4.5, "cold"], ["Tokyo", 19.5, "mild"], ["London", 12.5, "mild"]], "frozen": "FrozenInstanceError", "hashable": 4}
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Snapshot:
    city: str
    celsius: float
    humidity: int
    feels_like: float = field(init=False, compare=False)
    label: str = field(init=False, compare=False)

    def __post_init__(self):
        feels = self.celsius - (100 - self.humidity) / 10 if self.celsius > 20 else self.celsius - 2
        object.__setattr__(self, "feels_like", round(feels, 1))
        object.__setattr__(self, "label", "hot" if feels >= 25 else "mild" if feels >= 12 else "cold")


snaps = []
for city in ["Cairo", "Oslo", "Tokyo", "London"]:
    w = await tools.get_weather(city=city)
    snaps.append(Snapshot(w["city"], w["celsius"], w["humidity"]))
try:
    snaps[0].label = "x"
    frozen = False
except Exception as e:
    frozen = type(e).__name__
return {"snaps": [(s.city, s.feels_like, s.label) for s in snaps], "frozen": frozen, "hashable": len(set(snaps))}

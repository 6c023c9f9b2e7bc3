# description: Map weather to clothing advice with an Enum whose members carry data
# value: {"advice": {"London": ["RAIN", 3, "umbrella", "UMBRELLA"], "Oslo": ["SNOW", 4, "coat", "COAT"], "Cairo": ["SUNNY", 0, "sunscreen", "SUNSCREEN"], "Paris": ["CLOUDY", 1, "nothing", "NOTHING"], "New York": ["WINDY", 2, "nothing", "NOTHING"]}, "gloomiest": "SNOW", "members": ["coat", "umbrella", "sunscreen", "nothing"]}
# logs: ["Sky.RAIN <Advice.COAT: 'coat'> ('snow', 4) WINDY"]
import asyncio
from enum import Enum, StrEnum, auto, unique

class Advice(StrEnum):
    COAT = auto()
    UMBRELLA = auto()
    SUNSCREEN = auto()
    NOTHING = auto()

@unique
class Sky(Enum):
    SUNNY = ("sunny", 0)
    CLOUDY = ("cloudy", 1)
    RAIN = ("rain", 3)
    SNOW = ("snow", 4)
    WINDY = ("windy", 2)

    def __init__(self, label, gloom):
        self.label = label
        self.gloom = gloom

    @classmethod
    def parse(cls, text):
        for member in cls:
            if member.label == text:
                return member
        raise ValueError(text)

    @property
    def advice(self):
        if self in (Sky.RAIN, Sky.SNOW):
            return Advice.UMBRELLA
        return Advice.SUNSCREEN if self is Sky.SUNNY else Advice.NOTHING

cities = ["London", "Oslo", "Cairo", "Paris", "New York"]
weather = await asyncio.gather(*(tools.get_weather(city=c) for c in cities))
out = {}
for w in weather:
    sky = Sky.parse(w["condition"])
    advice = Advice.COAT if w["celsius"] < 10 else sky.advice
    out[w["city"]] = [sky.name, sky.gloom, advice, advice.upper()]
print(Sky.RAIN, repr(Advice.COAT), Sky["SNOW"].value, Sky(("windy", 2)).name)
return {"advice": out, "gloomiest": max(Sky, key=lambda s: s.gloom).name, "members": list(Advice)}

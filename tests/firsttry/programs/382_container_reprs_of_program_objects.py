# description: Print a debugging dump of weather observations held in lists, dicts, sets and tuples of small classes
# value: {"list": "[<Obs Oslo 6.5>, <Obs Paris 18.0>, <Obs Cairo 33.5>]", "dict": "{'Oslo': <Obs Oslo 6.5>, 'Paris': <Obs Paris 18.0>, 'Cairo': <Obs Cairo 33.5>}", "fstring": "[<Obs Oslo 6.5>, <Obs Paris 18.0>, <Obs Cairo 33.5>]", "fstring_r": "<Obs Oslo 6.5> Oslo=6.5C Oslo=6.5C", "tuple": "(<Obs Oslo 6.5>,)", "dc_list": "[Point(city='Oslo', humidity=70), Point(city='Paris', humidity=65), Point(city='Cairo', humidity=20)]", "nested": "{'obs': [<Obs Oslo 6.5>, <Obs Paris 18.0>], 'pair': (<Obs Oslo 6.5>, Point(city='Oslo', humidity=70)), 'set': {Point(city='Paris', humidity=65)}}", "format": "Paris=18.0C / <Obs Paris 18.0>", "percent": "Cairo=33.5C / <Obs Cairo 33.5>", "join": "Oslo=6.5C, Paris=18.0C, Cairo=33.5C", "plain_default": true, "str_of_dc": "Point(city='Cairo', humidity=20)"}
# logs: ["[<Obs Oslo 6.5>, <Obs Paris 18.0>, <Obs Cairo 33.5>]", "{'Oslo': <Obs Oslo 6.5>, 'Paris': <Obs Paris 18.0>, 'Cairo': <Obs Cairo 33.5>}", "Oslo=6.5C Paris=18.0C Cairo=33.5C", "Point(city='Oslo', humidity=70) [Point(city='Oslo', humidity=70)]", "{'obs': [<Obs Oslo 6.5>, <Obs Paris 18.0>], 'pair': (<Obs Oslo 6.5>, Point(city='Oslo', humidity=70)), 'set': {Point(city='Paris', humidity=65)}}"]
from dataclasses import dataclass


class Obs:
    def __init__(self, city: str, c: float) -> None:
        self.city = city
        self.c = c

    def __repr__(self) -> str:
        return f"<Obs {self.city} {self.c}>"

    def __str__(self) -> str:
        return f"{self.city}={self.c}C"


@dataclass(frozen=True)
class Point:
    city: str
    humidity: int


class Plain:
    pass


obs, points = [], []
for city in ("Oslo", "Paris", "Cairo"):
    w = await tools.get_weather(city=city)
    obs.append(Obs(w["city"], w["celsius"]))
    points.append(Point(w["city"], w["humidity"]))

by_city = {o.city: o for o in obs}
nested = {"obs": obs[:2], "pair": (obs[0], points[0]), "set": {points[1]}}
print(obs)
print(by_city)
print(*obs)
print(points[0], [points[0]])
print(nested)
plain_repr = repr(Plain())
return {
    "list": str(obs),
    "dict": repr(by_city),
    "fstring": f"{obs}",
    "fstring_r": f"{obs[0]!r} {obs[0]!s} {obs[0]}",
    "tuple": str(tuple(obs[:1])),
    "dc_list": str(points),
    "nested": str(nested),
    "format": "{} / {!r}".format(obs[1], obs[1]),
    "percent": "%s / %r" % (obs[2], obs[2]),
    "join": ", ".join(map(str, obs)),
    "plain_default": plain_repr.startswith("<") and "Plain object at 0x" in plain_repr,
    "str_of_dc": str(points[2]),
}

# description: Count condition occurrences with dict and UserDict subclasses
# value: {"tally": {"rain": 1, "cloudy": 1, "snow": 1, "sunny": 2}, "unseen": 0, "oslo": 6.5, "has": true, "keys": ["london", "paris", "oslo", "tokyo", "cairo"], "len": 5, "as_dict": {"london": 14.5, "paris": 18.0, "oslo": 6.5, "tokyo": 24.0, "cairo": 33.5}}
from collections import UserDict, defaultdict

class Tally(dict):
    def __missing__(self, key):
        return 0

class CaseInsensitive(UserDict):
    def __setitem__(self, key, value):
        super().__setitem__(key.lower(), value)
    def __getitem__(self, key):
        return super().__getitem__(key.lower())
    def __contains__(self, key):
        return super().__contains__(key.lower())

tally = Tally()
temps = CaseInsensitive()
for city in ["London", "Paris", "Oslo", "Tokyo", "Cairo"]:
    w = await tools.get_weather(city=city)
    tally[w["condition"]] += 1
    temps[city] = w["celsius"]
return {"tally": dict(tally), "unseen": tally["fog"], "oslo": temps["OSLO"], "has": "TOKYO" in temps, "keys": list(temps), "len": len(temps), "as_dict": dict(temps)}

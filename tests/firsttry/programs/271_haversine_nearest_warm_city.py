# description: Suggest the nearest warm, dry city to each customer's home city
# value: {"good": ["Cairo", "New York", "Paris", "Tokyo"], "suggestions": {"Ada Lovelace": "Paris (343 km, 18.0\u00b0C cloudy)", "Grace Hopper": "New York (334 km, 21.0\u00b0C windy)", "Alan Turing": "Paris (606 km, 18.0\u00b0C cloudy)", "Katherine Johnson": "New York (457 km, 21.0\u00b0C windy)", "Edsger Dijkstra": "Paris (363 km, 18.0\u00b0C cloudy)", "Margaret Hamilton": "New York (306 km, 21.0\u00b0C windy)"}, "london_paris": 343}
# logs: ["Ada Lovelace         -> Paris (343 km, 18.0\u00b0C cloudy)", "Grace Hopper         -> New York (334 km, 21.0\u00b0C windy)", "Alan Turing          -> Paris (606 km, 18.0\u00b0C cloudy)", "Katherine Johnson    -> New York (457 km, 21.0\u00b0C windy)", "Edsger Dijkstra      -> Paris (363 km, 18.0\u00b0C cloudy)", "Margaret Hamilton    -> New York (306 km, 21.0\u00b0C windy)"]
import asyncio
import math
from typing import NamedTuple

class Point(NamedTuple):
    lat: float
    lon: float

    def km_to(self, other: "Point") -> float:
        r = 6371.0
        p1, p2 = math.radians(self.lat), math.radians(other.lat)
        dp = p2 - p1
        dl = math.radians(other.lon - self.lon)
        a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
        return 2 * r * math.atan2(math.sqrt(a), math.sqrt(1 - a))

CITIES = {
    "London": Point(51.507, -0.128), "Paris": Point(48.857, 2.352), "Oslo": Point(59.913, 10.752),
    "Tokyo": Point(35.676, 139.650), "Cairo": Point(30.044, 31.236), "New York": Point(40.713, -74.006),
    "Sydney": Point(-33.869, 151.209),
}
HOMES = {
    "London": Point(51.507, -0.128), "Arlington": Point(38.880, -77.107), "Manchester": Point(53.481, -2.243),
    "Hampton": Point(37.030, -76.345), "Eindhoven": Point(51.441, 5.470), "Boston": Point(42.360, -71.059),
}

weather = {w["city"]: w for w in await asyncio.gather(*(tools.get_weather(city=c) for c in CITIES))}
good = {c for c, w in weather.items() if w["celsius"] >= 18 and w["condition"] not in ("rain", "snow")}
suggestions = {}
for customer in await tools.list_customers():
    home = HOMES[customer["address"]["city"]]
    options = sorted(((home.km_to(CITIES[c]), c) for c in good))
    km, city = options[0]
    suggestions[customer["name"]] = f"{city} ({km:,.0f} km, {weather[city]['celsius']:.1f}°C {weather[city]['condition']})"
    print(f"{customer['name']:<20} -> {suggestions[customer['name']]}")
return {"good": sorted(good), "suggestions": suggestions,
        "london_paris": round(CITIES["London"].km_to(CITIES["Paris"]))}

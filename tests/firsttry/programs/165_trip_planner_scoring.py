# description: Pick the best city and day for an outdoor event
# value: {"best": "New York on Monday 17 June", "score": 2.75, "top3": [[2.75, "New York", "2024-06-17"], [1.75, "Tokyo", "2024-06-17"], [0.88, "Paris", "2024-06-19"]], "per_city": {"London": -0.5, "Paris": 0.88, "Tokyo": 1.75, "Sydney": 0.88, "New York": 2.75}}
import asyncio
from datetime import date

CITIES = ["London", "Paris", "Tokyo", "Sydney", "New York"]
WEIGHTS = {"sunny": 3, "cloudy": 1, "windy": 0, "rain": -3, "snow": -4}

def score(day: dict) -> float:
    comfort = -abs(((day["high"] + day["low"]) / 2) - 20) / 2
    return WEIGHTS[day["condition"]] + comfort - day["rain_mm"] / 5

forecasts = await asyncio.gather(*(tools.forecast(city=c, days=5) for c in CITIES))
options = [
    (round(score(day), 2), city, day["date"])
    for city, days in zip(CITIES, forecasts)
    for day in days
    if date.fromisoformat(day["date"]).weekday() >= 5 or day["condition"] == "sunny"
]
options.sort(key=lambda o: (-o[0], o[1]))
best_score, best_city, best_day = options[0]
per_city = {city: max(round(score(d), 2) for d in days) for city, days in zip(CITIES, forecasts)}
return {"best": f"{best_city} on {date.fromisoformat(best_day):%A %d %B}", "score": best_score, "top3": options[:3], "per_city": per_city}

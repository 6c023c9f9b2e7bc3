# description: Summarise forecasts with typing.NamedTuple records that have defaults and methods
# value: {"n": 12, "wet": [["London", "2024-06-15", 9.0], ["Paris", "2024-06-17", 9.0]], "widest": {"city": "Paris", "date": "2024-06-17", "high": 21.0, "low": 12.0, "rain_mm": 9.0}, "unpacked": ["Paris", "2024-06-17", [21.0, 12.0, 9.0]], "moved": "Elsewhere", "fields": ["city", "date", "high", "low", "rain_mm"], "defaults": {"rain_mm": 0.0}, "dry_rain": 0.0, "is_tuple": true, "sorted_first": "2024-06-15", "index": 0}
# logs: ["Paris 2024-06-17: 12.0..21.0"]
from typing import NamedTuple


class DaySummary(NamedTuple):
    city: str
    date: str
    high: float
    low: float
    rain_mm: float = 0.0

    @property
    def spread(self) -> float:
        return round(self.high - self.low, 1)

    def is_wet(self, threshold: float = 1.0) -> bool:
        return self.rain_mm >= threshold

    def __str__(self):
        return f"{self.city} {self.date}: {self.low:.1f}..{self.high:.1f}"


rows = []
for city in ("London", "Paris", "Cairo"):
    for d in await tools.forecast(city=city, days=4):
        rows.append(DaySummary(city, d["date"], d["high"], d["low"], d["rain_mm"]))

wet = [r for r in rows if r.is_wet()]
widest = max(rows, key=lambda r: (r.spread, r.city))
city, date, *temps = widest
moved = widest._replace(city="Elsewhere")
dry = DaySummary("Nowhere", "2024-01-01", 1.0, 0.0)
print(str(widest))
return {
    "n": len(rows),
    "wet": [(r.city, r.date, r.rain_mm) for r in wet],
    "widest": widest._asdict(),
    "unpacked": [city, date, temps],
    "moved": moved.city,
    "fields": DaySummary._fields,
    "defaults": DaySummary._field_defaults,
    "dry_rain": dry.rain_mm,
    "is_tuple": isinstance(dry, tuple),
    "sorted_first": sorted(rows)[0].date,
    "index": rows[0].index(rows[0].city),
}

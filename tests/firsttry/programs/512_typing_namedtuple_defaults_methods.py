# description: Model forecast rows as a typing.NamedTuple with defaults and methods, using _replace, _fields and _asdict, and return them
# value: {"rows": [["Paris", "2024-06-15", 18.0, 12.0, ""], ["Paris", "2024-06-16", 19.5, 13.0, ""], ["Cairo", "2024-06-15", 33.5, 27.5, "warm"], ["Cairo", "2024-06-16", 35.0, 28.5, "warm"]], "fields": ["city", "date", "high", "low", "note"], "defaults": {"low": 0.0, "note": ""}, "asdict": {"city": "Paris", "date": "2024-06-15", "high": 18.0, "low": 12.0, "note": ""}, "spreads": [6.0, 6.5, 6.0, 6.5], "unpacked": ["Paris", "2024-06-15", [18.0, 12.0]], "index": 19.5, "made": ["Oslo", "2024-06-15", 8.0, 2.0, "snow"], "eq_tuple": true, "sorted": ["2024-06-16", "2024-06-15", "2024-06-16", "2024-06-15"], "count": 1}
from typing import NamedTuple

class DayRow(NamedTuple):
    city: str
    date: str
    high: float
    low: float = 0.0
    note: str = ""

    @property
    def spread(self) -> float:
        return round(self.high - self.low, 1)

    def warm(self, threshold: float = 20.0) -> bool:
        return self.high >= threshold

rows = []
for city in ["Paris", "Cairo"]:
    for d in await tools.forecast(city=city, days=2):
        rows.append(DayRow(city, d["date"], d["high"], d["low"]))
flagged = [r._replace(note="warm") if r.warm() else r for r in rows]
city, date, *temps = rows[0]
return {
    "rows": flagged, "fields": DayRow._fields, "defaults": DayRow._field_defaults, "asdict": rows[0]._asdict(),
    "spreads": [r.spread for r in rows], "unpacked": [city, date, temps[:2]], "index": rows[1][2],
    "made": DayRow._make(["Oslo", "2024-06-15", 8.0, 2.0, "snow"]), "eq_tuple": DayRow("a", "b", 1.0) == ("a", "b", 1.0, 0.0, ""),
    "sorted": [r.date for r in sorted(rows, key=lambda r: (-r.high, r.city))], "count": rows[0].count("Paris"),
}

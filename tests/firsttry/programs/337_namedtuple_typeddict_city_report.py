# description: Build a typed weather comparison using NamedTuple rows and TypedDict summaries
# value: {"summary": {"warmest": "Cairo", "coldest": "Oslo", "mean_humidity": 58.4, "rows": [["Oslo", 6.5, 70, "snow"], ["London", 14.5, 82, "rain"], ["Paris", 18.0, 65, "cloudy"], ["Tokyo", 24.0, 55, "sunny"], ["Cairo", 33.5, 20, "sunny"]]}, "fields": ["city", "celsius", "humidity", "condition"], "defaults": {"condition": "unknown"}, "edited": {"city": "Oslo", "celsius": 6.5, "humidity": 70, "condition": "blizzard"}, "partial": "Reading(city='Nowhere', celsius=0.0, humidity=0, condition='unknown')", "unpacked": ["Paris", 18.0, [65, "cloudy"]], "is_tuple": true, "max_by_humidity": "London"}
# logs: ["Oslo: 6.5C/43.7F snow", "London: 14.5C/58.1F rain", "Paris: 18.0C/64.4F cloudy", "Tokyo: 24.0C/75.2F sunny", "Cairo: 33.5C/92.3F sunny"]
from typing import NamedTuple, TypedDict


class Reading(NamedTuple):
    city: str
    celsius: float
    humidity: int
    condition: str = "unknown"

    @property
    def fahrenheit(self) -> float:
        return round(self.celsius * 9 / 5 + 32, 1)

    def label(self) -> str:
        return f"{self.city}: {self.celsius:.1f}C/{self.fahrenheit:.1f}F {self.condition}"


class Summary(TypedDict):
    warmest: str
    coldest: str
    mean_humidity: float
    rows: list[list]


cities = ["London", "Paris", "Oslo", "Tokyo", "Cairo"]
readings = []
for city in cities:
    w = await tools.get_weather(city=city)
    readings.append(Reading._make([w["city"], w["celsius"], w["humidity"], w["condition"]]))

readings.sort(key=lambda r: r.celsius)
for r in readings:
    print(r.label())

edited = readings[0]._replace(condition="blizzard")
partial = Reading("Nowhere", 0.0, 0)
summary = Summary(
    warmest=readings[-1].city,
    coldest=readings[0].city,
    mean_humidity=round(sum(r.humidity for r in readings) / len(readings), 1),
    rows=[list(r) for r in readings],
)
city, celsius, *rest = readings[2]
return {
    "summary": summary,
    "fields": list(Reading._fields),
    "defaults": Reading._field_defaults,
    "edited": edited._asdict(),
    "partial": repr(partial),
    "unpacked": [city, celsius, rest],
    "is_tuple": isinstance(readings[0], tuple),
    "max_by_humidity": max(readings, key=lambda r: r.humidity).city,
}

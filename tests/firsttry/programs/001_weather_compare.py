# description: Compare current weather in four cities
# value: {"warmest": "Tokyo", "coldest": "Oslo", "spread": 17.5}
# logs: ["London: 14.5°C, rain", "Paris: 18.0°C, cloudy", "Oslo: 6.5°C, snow", "Tokyo: 24.0°C, sunny"]
import asyncio

cities = ["London", "Paris", "Oslo", "Tokyo"]
reports = await asyncio.gather(*[tools.get_weather(city=c) for c in cities])

warmest = max(reports, key=lambda r: r["celsius"])
coldest = min(reports, key=lambda r: r["celsius"])
for r in reports:
    print(f"{r['city']}: {r['celsius']}°C, {r['condition']}")

return {
    "warmest": warmest["city"],
    "coldest": coldest["city"],
    "spread": warmest["celsius"] - coldest["celsius"],
}

# description: Show the Tokyo forecast by weekday
# value: {"first": "Sat 15 Jun: rain, high 24.0", "weekend": ["rain", "cloudy"], "iso_week": 24}
# logs: ["Sat 15 Jun: rain, high 24.0", "Sun 16 Jun: cloudy, high 25.5", "Mon 17 Jun: sunny, high 27.0", "Tue 18 Jun: windy, high 24.0", "Wed 19 Jun: rain, high 25.5", "Thu 20 Jun: sunny, high 27.0", "Fri 21 Jun: cloudy, high 24.0"]
from datetime import date

days = await tools.forecast(city="Tokyo", days=7)
lines = []
weekend = []
for d in days:
    day = date.fromisoformat(d["date"])
    lines.append(f"{day.strftime('%a %d %b')}: {d['condition']}, high {d['high']:.1f}")
    if day.weekday() >= 5:
        weekend.append(d["condition"])

print("\n".join(lines))
return {"first": lines[0], "weekend": weekend, "iso_week": date.fromisoformat(days[0]["date"]).isocalendar()[1]}

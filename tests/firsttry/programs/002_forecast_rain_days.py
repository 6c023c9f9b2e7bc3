# description: Summarise the five-day London forecast
# value: {"rainy_days": ["2024-06-15", "2024-06-19"], "average_high": 15.7, "total_rain_mm": 9.0, "bring_umbrella": true}
# logs: ["2 rainy days out of 5"]
import statistics

days = await tools.forecast(city="London", days=5)
rainy = [d["date"] for d in days if d["condition"] == "rain"]
avg_high = statistics.mean(d["high"] for d in days)
total_rain = sum(d["rain_mm"] for d in days)

print(f"{len(rainy)} rainy days out of {len(days)}")
return {
    "rainy_days": rainy,
    "average_high": round(avg_high, 1),
    "total_rain_mm": total_rain,
    "bring_umbrella": len(rainy) > 0,
}

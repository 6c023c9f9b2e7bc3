# description: Fetch forecasts for five cities with as_completed, printing progress counts
# value: {"done": 5, "rainy_days_total": 10}
# logs: ["progress 1/5", "progress 2/5", "progress 3/5", "progress 4/5", "progress 5/5"]
import asyncio
cities = ["London", "Paris", "Oslo", "Tokyo", "Cairo"]
done = 0
rainy = {}
for fut in asyncio.as_completed([tools.forecast(city=c, days=7) for c in cities]):
    days = await fut
    done += 1
    print(f"progress {done}/{len(cities)}")
    rainy[days[0]["date"] + str(len(rainy))] = sum(1 for d in days if d["condition"] == "rain")
return {"done": done, "rainy_days_total": sum(rainy.values())}

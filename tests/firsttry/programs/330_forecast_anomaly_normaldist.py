# description: Flag forecast days that are unusually warm or cold for each city using a normal model
# value: {"mu": 20.57, "sigma": 7.91, "flags": 14, "hot": ["Cairo"], "cold": ["Oslo"], "per_city": {"London": 15.79, "Paris": 19.29, "Oslo": 7.79, "Tokyo": 25.29, "Cairo": 34.79, "New York": 22.29, "Sydney": 18.79}, "spread": {"London": 1.249, "Paris": 1.249, "Oslo": 1.249, "Tokyo": 1.249, "Cairo": 1.249, "New York": 1.249, "Sydney": 1.249}, "corr": 0.149, "p90": 30.7}
# logs: ["Cairo    2024-06-17   36.5  z=+2.01  p98", "Cairo    2024-06-20   36.5  z=+2.01  p98", "Cairo    2024-06-16   35.0  z=+1.82  p97", "Cairo    2024-06-19   35.0  z=+1.82  p97", "Oslo     2024-06-15    6.5  z=-1.78  p4"]
import asyncio
import statistics
from statistics import NormalDist

cities = ["London", "Paris", "Oslo", "Tokyo", "Cairo", "New York", "Sydney"]
forecasts = await asyncio.gather(*(tools.forecast(city=c, days=7) for c in cities))

highs = [d["high"] for f in forecasts for d in f]
model = NormalDist.from_samples(highs)
flags = []
for city, days in zip(cities, forecasts):
    for d in days:
        z = model.zscore(d["high"])
        if abs(z) >= 1.2:
            flags.append({"city": city, "date": d["date"], "high": d["high"], "z": round(z, 2),
                          "pct": round(model.cdf(d["high"]) * 100, 1)})

per_city = {c: round(statistics.fmean(d["high"] for d in f), 2) for c, f in zip(cities, forecasts)}
spread = {c: round(statistics.pstdev([d["high"] for d in f]), 3) for c, f in zip(cities, forecasts)}
corr = statistics.correlation([d["high"] for d in forecasts[0]], [d["low"] for d in forecasts[0]])
flags.sort(key=lambda f: (-abs(f["z"]), f["city"], f["date"]))
for f in flags[:5]:
    print(f"{f['city']:<9}{f['date']}  {f['high']:>5.1f}  z={f['z']:+.2f}  p{f['pct']:.0f}")
return {"mu": round(model.mean, 2), "sigma": round(model.stdev, 2), "flags": len(flags),
        "hot": sorted({f["city"] for f in flags if f["z"] > 0}), "cold": sorted({f["city"] for f in flags if f["z"] < 0}),
        "per_city": per_city, "spread": spread, "corr": round(corr, 3),
        "p90": round(model.inv_cdf(0.9), 1)}

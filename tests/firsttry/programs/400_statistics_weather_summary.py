# description: Summarise forecasts with the statistics module: mean, median, stdev, quantiles, mode, NormalDist
# value: {"summary": {"London": {"mean": 15.79, "median": 16.0, "stdev": 1.35, "range": 3.0}, "Paris": {"mean": 19.29, "median": 19.5, "stdev": 1.35, "range": 3.0}, "Oslo": {"mean": 7.79, "median": 8.0, "stdev": 1.35, "range": 3.0}, "Tokyo": {"mean": 25.29, "median": 25.5, "stdev": 1.35, "range": 3.0}, "Cairo": {"mean": 34.79, "median": 35.0, "stdev": 1.35, "range": 3.0}, "New York": {"mean": 22.29, "median": 22.5, "stdev": 1.35, "range": 3.0}, "Sydney": {"mean": 18.79, "median": 19.0, "stdev": 1.35, "range": 3.0}}, "quartiles": [16.75, 20.5, 24.0], "mode": "rain", "multimode": ["rain", "cloudy", "sunny"], "pstdev": 7.832, "median_low": 20.5, "geo": 29.531, "p_above_25": 0.2879, "corr": 1.0}
import statistics as st

cities = ["London", "Paris", "Oslo", "Tokyo", "Cairo", "New York", "Sydney"]
highs: dict[str, list[float]] = {}
for city in cities:
    days = await tools.forecast(city=city, days=7)
    highs[city] = [d["high"] for d in days]

everything = [h for hs in highs.values() for h in hs]
summary = {}
for city, hs in highs.items():
    summary[city] = {
        "mean": round(st.fmean(hs), 2),
        "median": st.median(hs),
        "stdev": round(st.stdev(hs), 3),
        "range": max(hs) - min(hs),
    }

q = st.quantiles(everything, n=4)
dist = st.NormalDist.from_samples(everything)
conds = []
for city in cities:
    conds += [d["condition"] for d in await tools.forecast(city=city, days=7)]
return {
    "summary": summary,
    "quartiles": [round(x, 2) for x in q],
    "mode": st.mode(conds),
    "multimode": st.multimode(conds),
    "pstdev": round(st.pstdev(everything), 3),
    "median_low": st.median_low(everything),
    "geo": round(st.geometric_mean([h + 10 for h in everything]), 3),
    "p_above_25": round(1 - dist.cdf(25), 4),
    "corr": round(st.correlation(highs["London"], highs["Paris"]), 4),
}

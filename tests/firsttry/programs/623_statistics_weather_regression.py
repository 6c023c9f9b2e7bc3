# description: Weather statistics across cities: means, spread, correlation and a linear fit
# value: {"mean": 19.285714285714285, "median": 18.0, "stdev": 8.351, "pvariance": 59.776, "quartiles": [14.5, 18.0, 24.0], "corr": -0.8627, "slope": -2.022, "intercept": 98.99, "modes": ["cloudy", "sunny"], "p_below_10": 0.133, "hmean": 49.5}
import asyncio
import statistics as st

cities = ["London", "Paris", "Oslo", "Tokyo", "Cairo", "New York", "Sydney"]
ws = await asyncio.gather(*(tools.get_weather(city=c) for c in cities))
temps = [w["celsius"] for w in ws]
hums = [w["humidity"] for w in ws]
fit = st.linear_regression(temps, hums)
dist = st.NormalDist.from_samples(temps)
return {
    "mean": st.mean(temps),
    "median": st.median(temps),
    "stdev": round(st.stdev(temps), 3),
    "pvariance": round(st.pvariance(temps), 3),
    "quartiles": [round(q, 2) for q in st.quantiles(temps, n=4)],
    "corr": round(st.correlation(temps, hums), 4),
    "slope": round(fit.slope, 3),
    "intercept": round(fit.intercept, 2),
    "modes": st.multimode(w["condition"] for w in ws),
    "p_below_10": round(dist.cdf(10), 3),
    "hmean": round(st.harmonic_mean(hums), 2),
}

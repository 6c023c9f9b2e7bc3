# description: Relate temperature to humidity across cities with statistics correlation and regression
# value: {"r": -0.8627, "slope": -2.0219, "intercept": 98.993, "pred30": 38.3, "median": 18.0, "median_low_high": [65, 65], "quartiles": [14.5, 18.0, 24.0], "deciles_len": 9, "fmean_weighted": 17.271, "geo": 17.112, "stdev": 8.351, "variance": 328.29, "mode": "sunny", "z_cairo": 1.702, "p_below_20": 0.534, "cov": -16.863}
import statistics as st

cities = ["London", "Paris", "Oslo", "Tokyo", "Cairo", "New York", "Sydney"]
ws = [await tools.get_weather(city=c) for c in cities]
temps = [w["celsius"] for w in ws]
hum = [w["humidity"] for w in ws]
wind = [w["wind_kph"] for w in ws]

r = st.correlation(temps, hum)
slope, intercept = st.linear_regression(temps, hum)
predicted_at_30 = slope * 30 + intercept
q = st.quantiles(temps, n=4)
dist = st.NormalDist.from_samples(temps)
return {
    "r": round(r, 4),
    "slope": round(slope, 4),
    "intercept": round(intercept, 3),
    "pred30": round(predicted_at_30, 1),
    "median": st.median(temps),
    "median_low_high": [st.median_low(hum), st.median_high(hum)],
    "quartiles": [round(x, 3) for x in q],
    "deciles_len": len(st.quantiles(wind, n=10, method="inclusive")),
    "fmean_weighted": round(st.fmean(temps, weights=hum), 3),
    "geo": round(st.geometric_mean(wind), 3),
    "stdev": round(st.stdev(temps), 3),
    "variance": round(st.pvariance(hum), 2),
    "mode": st.mode(["rain", "sunny", "sunny", "snow"]),
    "z_cairo": round(dist.zscore(33.5), 3),
    "p_below_20": round(dist.cdf(20), 3),
    "cov": round(st.covariance(temps, wind), 3),
}

# description: Summarise weather and forecast numbers with math and statistics helpers
# value: {"mean": 19.285714285714285, "fmean": 19.2857, "median_low": 18.0, "median_high": 18.0, "mode": "cloudy", "multimode": ["cloudy", "sunny"], "pstdev": 7.7315, "pvariance": 328.2857, "harmonic": 15.5868, "geometric": 17.1121, "quantiles": [57.5, 65.0, 69.0], "slope": 0.0536, "intercept": 15.625, "corr": -0.8627, "isclose": true, "naive_sum": 0.9999999999999999, "fsum": 1.0, "prod": 24, "comb_perm": [35, 210, 120], "gcd_lcm": [12, 60], "dist": 5.0, "hypot": 13.0, "km": 342.5, "ceil_floor": [-2, -3, -2, -2, 4], "inf": true, "log": [3.0, 10.0, 0.0], "copysign": -3.0, "modf": [0.75, 3.0]}
# logs: ["mean 19.29 median 18.0 stdev 8.351"]
import math
import statistics as st

cities = ["London", "Paris", "Oslo", "Tokyo", "Cairo", "New York", "Sydney"]
weather = [await tools.get_weather(city=c) for c in cities]
temps = [w["celsius"] for w in weather]
humid = [w["humidity"] for w in weather]
winds = [w["wind_kph"] for w in weather]

fc = await tools.forecast(city="London", days=7)
highs = [d["high"] for d in fc]
xs = list(range(len(highs)))
slope, intercept = st.linear_regression(xs, highs)

coords = {"London": (51.5, -0.13), "Paris": (48.86, 2.35)}


def haversine(a, b):
    lat1, lon1, lat2, lon2 = map(math.radians, (*a, *b))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 2 * 6371 * math.asin(math.sqrt(h))


print(f"mean {st.mean(temps):.2f} median {st.median(temps)} stdev {st.stdev(temps):.3f}")
return {
    "mean": st.mean(temps),
    "fmean": round(st.fmean(temps), 4),
    "median_low": st.median_low(temps),
    "median_high": st.median_high(temps),
    "mode": st.mode([w["condition"] for w in weather]),
    "multimode": st.multimode([w["condition"] for w in weather]),
    "pstdev": round(st.pstdev(temps), 4),
    "pvariance": round(st.pvariance(humid), 4),
    "harmonic": round(st.harmonic_mean(winds), 4),
    "geometric": round(st.geometric_mean(winds), 4),
    "quantiles": st.quantiles(humid, n=4, method="inclusive"),
    "slope": round(slope, 4),
    "intercept": round(intercept, 4),
    "corr": round(st.correlation(temps, humid), 4),
    "isclose": math.isclose(sum([0.1] * 10), 1.0),
    "naive_sum": sum([0.1] * 10),
    "fsum": math.fsum([0.1] * 10),
    "prod": math.prod([2, 3, 4]),
    "comb_perm": [math.comb(7, 3), math.perm(7, 3), math.factorial(5)],
    "gcd_lcm": [math.gcd(84, 36), math.lcm(4, 6, 10)],
    "dist": round(math.dist((0, 0), (3, 4)), 2),
    "hypot": math.hypot(5, 12),
    "km": round(haversine(coords["London"], coords["Paris"]), 1),
    "ceil_floor": [math.ceil(-2.5), math.floor(-2.5), math.trunc(-2.5), round(-2.5), round(3.5)],
    "inf": math.isinf(float("inf")),
    "log": [round(math.log(1000, 10), 6), math.log2(1024), round(math.log1p(0), 1)],
    "copysign": math.copysign(3, -0.0),
    "modf": list(math.modf(3.75)),
}

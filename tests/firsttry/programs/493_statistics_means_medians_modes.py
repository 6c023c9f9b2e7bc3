# description: Summarise the prices and forecast highs with geometric and harmonic means, median variants, multimode and weighted fmean
# value: {"geometric": 55.491, "harmonic": 33.15, "median_low": 9, "median_high": 9, "median_grouped": 3.5, "multimode": [14.5, 18.0, 6.5], "mode": 18, "pvariance": 24.7135, "pstdev": 4.9713, "weighted": 37.105, "quartiles_incl": [4.5, 9.0, 28.0], "deciles": 9, "empty": "mean requires at least one data point"}
import statistics as st

products = await tools.list_products()
prices = [p["price"] for p in products]
stock = [p["in_stock"] for p in products]
highs = []
for city in ["London", "Paris", "Oslo"]:
    highs += [d["high"] for d in await tools.forecast(city=city, days=4)]
summary = {
    "geometric": round(st.geometric_mean(prices), 3),
    "harmonic": round(st.harmonic_mean(prices), 3),
    "median_low": st.median_low(stock), "median_high": st.median_high(stock),
    "median_grouped": st.median_grouped([1, 2, 2, 3, 4, 4, 4, 5]),
    "multimode": st.multimode(highs), "mode": st.mode([round(h) for h in highs]),
    "pvariance": round(st.pvariance(highs), 4), "pstdev": round(st.pstdev(highs), 4),
    "weighted": round(st.fmean(prices, weights=[max(s, 1) for s in stock]), 3),
    "quartiles_incl": st.quantiles(stock, n=4, method="inclusive"),
    "deciles": len(st.quantiles(highs, n=10)),
}
try:
    st.mean([])
except st.StatisticsError as exc:
    summary["empty"] = str(exc)
return summary

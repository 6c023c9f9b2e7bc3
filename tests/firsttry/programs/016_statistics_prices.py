# description: Compute price statistics for the catalogue
# value: {"count": 7, "mean": 91.03, "median": 45.0, "stdev": 95.57, "min": 9.75, "max": 279.99, "above_mean": ["27-inch monitor", "Noise-cancelling headset"]}
import statistics

products = await tools.list_products()
prices = [p["price"] for p in products]

stats = {
    "count": len(prices),
    "mean": round(statistics.mean(prices), 2),
    "median": statistics.median(prices),
    "stdev": round(statistics.stdev(prices), 2),
    "min": min(prices),
    "max": max(prices),
}
above_mean = [p["name"] for p in products if p["price"] > stats["mean"]]
stats["above_mean"] = above_mean
return stats

# description: Bucket products into price bands
# value: {"bands": {"plus": ["KB-01"], "standard": ["MS-02", "HD-10", "LP-14"], "luxury": ["MN-27"], "budget": ["CB-05"], "premium": ["HS-07"]}, "cheaper_than_45": 3}
import bisect

BOUNDARIES = [20, 50, 100, 200]
BANDS = ["budget", "standard", "plus", "premium", "luxury"]

products = await tools.list_products()
bands = {}
for p in products:
    band = BANDS[bisect.bisect_right(BOUNDARIES, p["price"])]
    bands.setdefault(band, []).append(p["sku"])

sorted_prices = sorted(p["price"] for p in products)
pos = bisect.bisect_left(sorted_prices, 45.0)
return {"bands": bands, "cheaper_than_45": pos}

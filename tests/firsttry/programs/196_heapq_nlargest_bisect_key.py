# description: Pick top products by stock value and bucket prices with heapq and bisect
# value: {"top_value": ["MN-27", "HD-10", "HS-07"], "cheapest": ["CB-05", "MS-02"], "banded": {"KB-01": "50-100", "MS-02": "20-50", "MN-27": "200+", "HD-10": "20-50", "CB-05": "<20", "LP-14": "20-50", "HS-07": "100-200"}, "mid_range": ["LP-14", "KB-01", "HS-07"], "drained": ["CB-05", "HD-10", "KB-01"], "heap_min": 1, "scores": [70, 85, 88, 90], "grade": "B"}
import heapq
import bisect

products = await tools.list_products()
top_value = heapq.nlargest(3, products, key=lambda p: p["price"] * p["in_stock"])
cheapest = heapq.nsmallest(2, products, key=lambda p: (p["price"], p["sku"]))

bands = [20, 50, 100, 200]
labels = ["<20", "20-50", "50-100", "100-200", "200+"]
banded = {p["sku"]: labels[bisect.bisect_right(bands, p["price"])] for p in products}

by_price = sorted(products, key=lambda p: p["price"])
i = bisect.bisect_left(by_price, 40, key=lambda p: p["price"])
j = bisect.bisect_right(by_price, 149.0, key=lambda p: p["price"])
mid_range = [p["sku"] for p in by_price[i:j]]

queue = []
for p in products:
    heapq.heappush(queue, (-p["in_stock"], p["sku"]))
drained = [heapq.heappop(queue)[1] for _ in range(3)]
nums = [5, 1, 8, 3, 9, 2]
heapq.heapify(nums)
scores = sorted([70, 85, 90])
bisect.insort(scores, 88)
grade = "FDCBA"[bisect.bisect([60, 70, 80, 90], 88)]
return {
    "top_value": [p["sku"] for p in top_value],
    "cheapest": [p["sku"] for p in cheapest],
    "banded": banded,
    "mid_range": mid_range,
    "drained": drained,
    "heap_min": nums[0],
    "scores": scores,
    "grade": grade,
}

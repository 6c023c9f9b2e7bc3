# description: Tally sold units per SKU across customers with Counter.update, total, subtract and set-like operators
# value: {"top3": [["CB-05", 15], ["HS-07", 4], ["HD-10", 4]], "least": [["MS-02", 2], ["LP-14", 3]], "total": 34, "short": {"MS-02": 2}, "both": {"CB-05": 15, "HD-10": 4, "HS-07": 4, "KB-01": 3, "LP-14": 3, "MN-27": 3}, "union_total": 196, "left": {"CB-05": 105, "HD-10": 38, "HS-07": 5, "KB-01": 11, "LP-14": 0, "MN-27": 3, "MS-02": -2}, "negative": ["MS-02"], "positive_only": {"CB-05": 105, "HD-10": 38, "HS-07": 5, "KB-01": 11, "MN-27": 3}, "elements": ["a", "a", "b"], "missing": 0, "words": [["the", 3], ["quick", 1]], "counter_eq": true}
from collections import Counter

sold = Counter()
for cid in ["c1", "c2", "c4", "c6"]:
    for order in await tools.list_orders(customer_id=cid):
        sold.update({line["sku"]: line["quantity"] for line in order["lines"]})
stock = Counter(await tools.stock_levels(skus=list(sold)))
short = sold - stock
both = sold & stock
union = sold | stock
left = stock.copy()
left.subtract(sold)
words = Counter("the quick brown fox jumps over the lazy dog the end".split())
return {
    "top3": sold.most_common(3), "least": sold.most_common()[:-3:-1], "total": sold.total(),
    "short": dict(short), "both": dict(sorted(both.items())), "union_total": union.total(),
    "left": dict(sorted(left.items())), "negative": sorted(k for k, v in left.items() if v < 0),
    "positive_only": dict(sorted((+left).items())), "elements": sorted(Counter(a=2, b=1).elements()),
    "missing": sold["NOPE"], "words": words.most_common(2), "counter_eq": Counter(a=1) == Counter(a=1, b=0),
}

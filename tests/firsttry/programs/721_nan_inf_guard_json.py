# description: Guard NaN and infinity from a ratio computation before returning JSON
# value: {"ratios": {"KB-01": 6.357, "MS-02": null, "MN-27": 46.665, "HD-10": 0.929, "CB-05": 0.081, "LP-14": 15.0, "HS-07": 16.556}, "nan_eq": false, "isnan": true, "big": 1000000, "inf_cmp": true}
import math

products = await tools.list_products()
ratios = {}
for p in products:
    r = p["price"] / p["in_stock"] if p["in_stock"] else float("inf")
    ratios[p["sku"]] = None if math.isinf(r) or math.isnan(r) else round(r, 3)
nan = float("nan")
return {"ratios": ratios, "nan_eq": nan == nan, "isnan": math.isnan(nan),
        "big": int("1_000_000"), "inf_cmp": float("inf") > 1e308}

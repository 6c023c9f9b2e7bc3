# description: Pick accessory and audio SKUs with fnmatch.filter and compare the case rules
# value: {"picked": {"H?-*": ["HD-10", "HS-07"], "*-0[0-5]": ["CB-05", "KB-01", "MS-02"], "[!KM]*": ["CB-05", "HD-10", "HS-07", "LP-14"]}, "strict": false, "loose": true}
from fnmatch import filter as fn_filter, fnmatchcase

products = await tools.list_products()
skus = sorted(p["sku"] for p in products)
picked = {pattern: fn_filter(skus, pattern) for pattern in ("H?-*", "*-0[0-5]", "[!KM]*")}
return {"picked": picked, "strict": fnmatchcase("hd-10", "HD-*"), "loose": fnmatchcase("HD-10", "HD-*")}

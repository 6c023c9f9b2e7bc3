# description: Select products whose SKU matches shell-style patterns with fnmatch
# value: {"selected": {"KB-*": ["KB-01"], "M?-*": ["MS-02", "MN-27"], "*-0[5-7]": ["CB-05", "HS-07"]}, "case": false}
import fnmatch

products = await tools.list_products()
skus = [p["sku"] for p in products]
patterns = ["KB-*", "M?-*", "*-0[5-7]"]
selected = {pat: fnmatch.filter(skus, pat) for pat in patterns}
return {"selected": selected, "case": fnmatch.fnmatchcase("kb-01", "KB-*")}

# description: Normalise SKU keys with a UserDict subclass and keep a deduplicating UserList of tags
# value: {"kb": 14, "has": true, "keys": ["CB-05", "HD-10", "HS-07", "KB-01", "LP-14", "MN-27", "MS-02"], "tags": ["vip", "beta", "enterprise", "pro", "free"], "len": 5, "upd": {"KB-01": 1, "MS-02": 2}, "slug": "noise-cancelling-headset", "tags_sorted": ["beta", "enterprise", "free", "pro", "vip"], "tags_plus": "x", "is_list": false}
# limitation: collections.UserString is not in the collections facade
from collections import UserDict, UserList, UserString


class SkuMap(UserDict):
    def __setitem__(self, key, value):
        super().__setitem__(key.strip().upper(), value)

    def __getitem__(self, key):
        return super().__getitem__(key.strip().upper())

    def __contains__(self, key):
        return key.strip().upper() in self.data


class TagList(UserList):
    def append(self, item):
        item = item.lower()
        if item not in self.data:
            self.data.append(item)

    def extend(self, items):
        for i in items:
            self.append(i)


class Slug(UserString):
    def slug(self):
        return "-".join(self.data.lower().split())


stock = SkuMap()
for p in await tools.list_products():
    stock[f" {p['sku'].lower()} "] = p["in_stock"]
tags = TagList(["vip"])
for c in await tools.list_customers():
    tags.extend(c["tags"] + [c["tier"].upper()])
upd = SkuMap({"kb-01": 1})
upd.update({"ms-02": 2})
return {"kb": stock["kb-01"], "has": " hs-07" in stock, "keys": sorted(stock), "tags": list(tags), "len": len(tags), "upd": dict(upd),
        "slug": Slug("Noise Cancelling  Headset").slug(), "tags_sorted": sorted(tags), "tags_plus": (tags + ["x"])[-1], "is_list": isinstance(tags, list)}

# description: A catalogue sequence class with slice support, __reversed__ and __contains__
# value: {"cheap3": ["CB-05", "MS-02", "HD-10"], "every_other": ["CB-05", "HD-10", "KB-01", "MN-27"], "priciest": ["MN-27", "HS-07"], "has": [true, false], "last": "MN-27"}
class Catalogue:
    def __init__(self, products):
        self._items = sorted(products, key=lambda p: p["price"])

    def __len__(self):
        return len(self._items)

    def __getitem__(self, index):
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            return Catalogue([self._items[i] for i in range(start, stop, step)])
        return self._items[index]

    def __reversed__(self):
        for i in range(len(self) - 1, -1, -1):
            yield self._items[i]

    def __contains__(self, sku):
        return any(p["sku"] == sku for p in self._items)

    def skus(self):
        return [p["sku"] for p in self._items]

cat = Catalogue(await tools.list_products())
return {
    "cheap3": cat[:3].skus(),
    "every_other": cat[::2].skus(),
    "priciest": [p["sku"] for p in reversed(cat)][:2],
    "has": ["KB-01" in cat, "ZZ-99" in cat],
    "last": cat[-1]["sku"],
}

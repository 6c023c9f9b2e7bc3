# description: Wrap the product catalogue in a read-only sequence class supporting slices, reversal and membership
# value: {"skus": ["CB-05", "MS-02", "HD-10", "LP-14", "KB-01", "HS-07", "MN-27"], "cheapest": "CB-05", "dearest": "MN-27", "middle": "Catalogue(['HD-10', 'LP-14', 'KB-01'])", "every_other": "Catalogue(['CB-05', 'HD-10', 'KB-01', 'MN-27'])", "reversed": ["MN-27", "HS-07", "KB-01"], "by_sku": 39.0, "contains": [true, false], "empty_bool": [true, false], "index_error": "catalogue index out of range", "key_error": "KeyError('NOPE')", "legacy": [2, 4, 6], "legacy_in": true, "unpack": ["CB-05", "MS-02"], "sorted_by_stock": ["MS-02", "LP-14", "MN-27"], "enumerated": [[1, "CB-05"], [2, "MS-02"]]}
# logs: ["Catalogue(['CB-05', 'MS-02', 'HD-10', 'LP-14', 'KB-01', 'HS-07', 'MN-27']) 7"]
class Catalogue:
    def __init__(self, products: list[dict]) -> None:
        self._items = sorted(products, key=lambda p: p["price"])

    def __len__(self) -> int:
        return len(self._items)

    def __getitem__(self, index):
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            return Catalogue([self._items[i] for i in range(start, stop, step)])
        if isinstance(index, str):
            for p in self._items:
                if p["sku"] == index:
                    return p
            raise KeyError(index)
        if not -len(self) <= index < len(self):
            raise IndexError("catalogue index out of range")
        return self._items[index]

    def __contains__(self, sku: str) -> bool:
        return any(p["sku"] == sku for p in self._items)

    def __reversed__(self):
        for i in range(len(self) - 1, -1, -1):
            yield self._items[i]

    def __bool__(self) -> bool:
        return bool(self._items)

    def __repr__(self) -> str:
        return f"Catalogue({[p['sku'] for p in self._items]})"


class Legacy:
    """Only __getitem__: iteration uses the old sequence protocol."""

    def __init__(self, data):
        self.data = data

    def __getitem__(self, i):
        return self.data[i] * 2


cat = Catalogue(await tools.list_products())
skus = [p["sku"] for p in cat]
print(cat, len(cat))
try:
    cat[99]
    index_error = None
except IndexError as e:
    index_error = str(e)
try:
    cat["NOPE"]
except KeyError as e:
    key_error = repr(e)
return {
    "skus": skus,
    "cheapest": cat[0]["sku"],
    "dearest": cat[-1]["sku"],
    "middle": repr(cat[2:5]),
    "every_other": repr(cat[::2]),
    "reversed": [p["sku"] for p in reversed(cat)][:3],
    "by_sku": cat["HD-10"]["price"],
    "contains": ["KB-01" in cat, "XX" in cat],
    "empty_bool": [bool(cat), bool(cat[10:])],
    "index_error": index_error,
    "key_error": key_error,
    "legacy": list(Legacy([1, 2, 3])),
    "legacy_in": 4 in Legacy([1, 2, 3]),
    "unpack": [a["sku"] for a in cat[:2]],
    "sorted_by_stock": [p["sku"] for p in sorted(cat, key=lambda p: p["in_stock"])][:3],
    "enumerated": [(i, p["sku"]) for i, p in enumerate(cat[:2], 1)],
}

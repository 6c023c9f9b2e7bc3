# description: Model the catalogue as a sequence-and-mapping container class with slicing
# value: {"skus": ["CB-05", "HD-10", "HS-07", "KB-01", "LP-14", "MN-27"], "reversed": ["MN-27", "LP-14", "KB-01", "HS-07", "HD-10", "CB-05"], "has_mouse": false, "first_two_eq": true, "stock_sum": 194, "sorted_desc": ["CB-05", "HD-10", "KB-01"], "enumerated": ["1:CB-05", "2:HD-10"]}
# logs: ["Inventory(CB-05, HD-10) 6 27-inch monitor", "missing 'ZZ-99'"]
class Inventory:
    def __init__(self, products):
        self._rows = sorted(products, key=lambda p: p["sku"])

    def __len__(self):
        return len(self._rows)

    def __getitem__(self, key):
        if isinstance(key, slice):
            return Inventory(self._rows[key])
        if isinstance(key, int):
            return self._rows[key]
        for row in self._rows:
            if row["sku"] == key:
                return row
        raise KeyError(key)

    def __setitem__(self, sku, stock):
        self[sku]["in_stock"] = stock

    def __delitem__(self, sku):
        self._rows = [r for r in self._rows if r["sku"] != sku]

    def __contains__(self, sku):
        return any(r["sku"] == sku for r in self._rows)

    def __iter__(self):
        return (r["sku"] for r in self._rows)

    def __reversed__(self):
        return reversed([r["sku"] for r in self._rows])

    def __eq__(self, other):
        return isinstance(other, Inventory) and list(self) == list(other)

    def __repr__(self):
        return f"Inventory({', '.join(self)})"

inv = Inventory(await tools.list_products())
levels = await tools.stock_levels(skus=list(inv))
for sku in inv:
    inv[sku] = levels[sku]
del inv["MS-02"]
print(inv[:2], len(inv), inv[-1]["name"])
try:
    inv["ZZ-99"]
except KeyError as e:
    print("missing", e)
return {
    "skus": list(inv),
    "reversed": list(reversed(inv)),
    "has_mouse": "MS-02" in inv,
    "first_two_eq": inv[:2] == Inventory([inv[0], inv[1]]),
    "stock_sum": sum(inv[s]["in_stock"] for s in inv),
    "sorted_desc": sorted(inv, key=lambda s: inv[s]["in_stock"], reverse=True)[:3],
    "enumerated": [f"{i}:{s}" for i, s in enumerate(inv, start=1)][:2],
}

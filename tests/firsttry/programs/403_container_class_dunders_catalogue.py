# description: A catalogue container class with __iter__, __len__, __getitem__ (slices and keys), __contains__ and operators
# value: {"len": [3, 2, 5], "cheapest": "CB-05", "priciest": "MN-27", "slice": "Catalogue(CB-05, MS-02, HD-10)", "in": [true, false], "minus": "Catalogue(MN-27, HS-07)", "or_eq": true, "empty": false, "rev": ["KB-01", "MS-02"], "by_key": "27-inch monitor", "hashable": true, "unpacked": ["CB-05", "HD-10"]}
class Catalogue:
    def __init__(self, products=()):
        self._items = {p["sku"]: p for p in products}

    def __len__(self):
        return len(self._items)

    def __iter__(self):
        return iter(sorted(self._items.values(), key=lambda p: p["price"]))

    def __getitem__(self, key):
        if isinstance(key, slice):
            return Catalogue(list(self)[key])
        if isinstance(key, int):
            return list(self)[key]
        return self._items[key]

    def __contains__(self, sku):
        return sku in self._items

    def __add__(self, other):
        if not isinstance(other, Catalogue):
            return NotImplemented
        return Catalogue([*self._items.values(), *other._items.values()])

    def __sub__(self, other):
        return Catalogue([p for s, p in self._items.items() if s not in other])

    def __or__(self, other):
        return self + other

    def __bool__(self):
        return bool(self._items)

    def __eq__(self, other):
        return isinstance(other, Catalogue) and set(self._items) == set(other._items)

    __hash__ = None

    def __repr__(self):
        return f"Catalogue({', '.join(self._items)})"

    def __reversed__(self):
        return reversed(list(self))


acc = Catalogue(await tools.list_products(category="accessories"))
per = Catalogue(await tools.list_products(category="peripherals"))
allp = Catalogue(await tools.list_products())
both = acc + per
cheap = allp[:3]
return {
    "len": [len(acc), len(per), len(both)],
    "cheapest": allp[0]["sku"],
    "priciest": allp[-1]["sku"],
    "slice": repr(cheap),
    "in": ["HD-10" in acc, "KB-01" in acc],
    "minus": repr(allp - both),
    "or_eq": (acc | per) == both,
    "empty": bool(Catalogue()),
    "rev": [p["sku"] for p in reversed(per)],
    "by_key": allp["MN-27"]["name"],
    "hashable": getattr(Catalogue, "__hash__", 1) is None,
    "unpacked": [p["sku"] for p in [*acc][:2]],
}

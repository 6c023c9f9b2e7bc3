# description: Model a shopping basket as a container class and price it against the catalogue
# value: {"basket": "Basket(CB-05\u00d72, HD-10\u00d71, KB-01\u00d71)", "len": 4, "first": "CB-05", "last": "KB-01", "slice": "Basket(HD-10\u00d71, KB-01\u00d71)", "has_kb": true, "has_hs": false, "missing_qty": 0, "empty_is_falsy": true, "eq": true, "combined": {"CB-05": 2, "HD-10": 1, "HS-07": 2, "KB-01": 2}, "total": 534.5, "iter_list": ["CB-05", "HD-10", "HS-07", "KB-01"], "sorted_desc": ["KB-01", "HS-07", "HD-10", "CB-05"]}
# logs: ["Basket(CB-05\u00d72, HD-10\u00d71, HS-07\u00d72, KB-01\u00d72) 7 534.5"]
class Basket:
    def __init__(self, items=None):
        self._qty: dict[str, int] = {}
        for sku, n in (items or {}).items():
            self.add(sku, n)

    def add(self, sku: str, n: int = 1) -> "Basket":
        self._qty[sku] = self._qty.get(sku, 0) + n
        if self._qty[sku] <= 0:
            del self._qty[sku]
        return self

    def __len__(self):
        return sum(self._qty.values())

    def __iter__(self):
        yield from sorted(self._qty)

    def __contains__(self, sku):
        return sku in self._qty

    def __getitem__(self, key):
        if isinstance(key, int):
            return list(self)[key]
        if isinstance(key, slice):
            return Basket({s: self._qty[s] for s in list(self)[key]})
        return self._qty.get(key, 0)

    def __bool__(self):
        return bool(self._qty)

    def __eq__(self, other):
        return isinstance(other, Basket) and self._qty == other._qty

    def __add__(self, other):
        out = Basket(self._qty)
        for s in other:
            out.add(s, other[s])
        return out

    def __repr__(self):
        inner = ", ".join(f"{s}×{self._qty[s]}" for s in self)
        return f"Basket({inner})"

prices = {p["sku"]: p["price"] for p in await tools.list_products()}
b = Basket({"KB-01": 1, "CB-05": 3}).add("HD-10").add("CB-05", -1)
extra = Basket({"HS-07": 2, "KB-01": 1})
both = b + extra
total = round(sum(prices[s] * both[s] for s in both), 2)
print(repr(both), len(both), total)
return {
    "basket": repr(b), "len": len(b), "first": b[0], "last": b[-1], "slice": repr(b[1:]),
    "has_kb": "KB-01" in b, "has_hs": "HS-07" in b, "missing_qty": b["ZZ"],
    "empty_is_falsy": not Basket(), "eq": Basket({"A": 1}) == Basket().add("A"),
    "combined": dict(zip(both, (both[s] for s in both))), "total": total,
    "iter_list": list(both), "sorted_desc": sorted(both, reverse=True),
}

# description: A Basket class implementing __repr__, __eq__, __lt__, __hash__, __len__, __iter__, __contains__, __bool__ and __getitem__
# value: {"reprs": ["Basket('c1', 2 skus)", "Basket('c2', 2 skus)", "Basket('c3', 0 skus)", "Basket('c4', 1 skus)"], "ranked": ["c1", "c4", "c2"], "truthy": [true, true, false, true], "lens": [2, 2, 0, 1], "skus": [["HD-10", "HS-07"], ["CB-05", "MS-02"], [], ["CB-05"]], "has_cb": [false, true, false, true], "qty": 1, "missing": 0, "eq": true, "ne_other": true, "distinct": 1, "max_owner": "c1", "str": "Basket('c2', 2 skus)"}
class Basket:
    def __init__(self, owner, items=None):
        self.owner = owner
        self.items = dict(items or {})

    def __repr__(self):
        return f"Basket({self.owner!r}, {len(self)} skus)"

    def __eq__(self, other):
        if not isinstance(other, Basket):
            return NotImplemented
        return self.items == other.items

    def __lt__(self, other):
        return self.value() < other.value()

    def __hash__(self):
        return hash(frozenset(self.items.items()))

    def __len__(self):
        return len(self.items)

    def __iter__(self):
        return iter(sorted(self.items))

    def __contains__(self, sku):
        return sku in self.items

    def __bool__(self):
        return any(self.items.values())

    def __getitem__(self, sku):
        return self.items.get(sku, 0)

    def value(self):
        return sum(q * PRICES[s] for s, q in self.items.items())

PRICES = {p["sku"]: p["price"] for p in await tools.list_products()}
baskets = []
for cid in ["c1", "c2", "c3", "c4"]:
    items = {}
    for order in await tools.list_orders(customer_id=cid, status="pending"):
        for line in order["lines"]:
            items[line["sku"]] = items.get(line["sku"], 0) + line["quantity"]
    baskets.append(Basket(cid, items))
ranked = sorted((b for b in baskets if b), reverse=True)
return {
    "reprs": [repr(b) for b in baskets], "ranked": [b.owner for b in ranked], "truthy": [bool(b) for b in baskets],
    "lens": [len(b) for b in baskets], "skus": [list(b) for b in baskets], "has_cb": ["CB-05" in b for b in baskets],
    "qty": baskets[0]["HS-07"], "missing": baskets[0]["NOPE"], "eq": Basket("x", {"a": 1}) == Basket("y", {"a": 1}),
    "ne_other": Basket("x") != 5, "distinct": len({Basket("x", {"a": 1}), Basket("y", {"a": 1})}),
    "max_owner": max(ranked).owner, "str": str(baskets[1]),
}

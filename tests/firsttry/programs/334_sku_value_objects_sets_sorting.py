# description: Deduplicate and rank ordered SKUs using a small value-object class with equality, hashing and ordering
# value: {"distinct": 7, "ranked": ["CB-05", "MS-02", "HD-10", "LP-14", "KB-01", "HS-07", "MN-27"], "cheapest": "Sku('CB-05', 9.75)", "dearest": "Sku('MN-27', 279.99)", "probe_in_set": true, "probe_in_list": true, "probe_count": 2, "probe_index": 0, "eq_other_type": false, "top3": "[Sku('MN-27', 279.99), Sku('HS-07', 149.0), Sku('KB-01', 89.0)]"}
# logs: ["15 lines, 7 distinct SKUs", "[Sku('CB-05', 9.75), Sku('MS-02', 25.5), Sku('HD-10', 39.0), Sku('LP-14', 45.0), Sku('KB-01', 89.0), Sku('HS-07', 149.0), Sku('MN-27', 279.99)]"]

class Sku:
    """A product code, compared case-insensitively."""

    def __init__(self, code: str, price: float) -> None:
        self.code = code.strip().upper()
        self.price = price

    def __repr__(self) -> str:
        return f"Sku({self.code!r}, {self.price})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sku):
            return NotImplemented
        return self.code == other.code

    def __hash__(self) -> int:
        return hash(self.code)

    def __lt__(self, other: "Sku") -> bool:
        return (self.price, self.code) < (other.price, other.code)


seen: list[Sku] = []
for cid in ("c1", "c2", "c4", "c6"):
    for order in await tools.list_orders(customer_id=cid):
        for line in order["lines"]:
            seen.append(Sku(line["sku"].lower(), line["unit_price"]))

unique = set(seen)
ranked = sorted(unique)
print(f"{len(seen)} lines, {len(unique)} distinct SKUs")
print(ranked)
cheapest, dearest = min(unique), max(unique)
probe = Sku("kb-01", 0.0)
return {
    "distinct": len(unique),
    "ranked": [s.code for s in ranked],
    "cheapest": repr(cheapest),
    "dearest": str(dearest),
    "probe_in_set": probe in unique,
    "probe_in_list": probe in seen,
    "probe_count": seen.count(probe),
    "probe_index": seen.index(probe),
    "eq_other_type": Sku("X", 1) == "X",
    "top3": repr(sorted(unique, reverse=True)[:3]),
}

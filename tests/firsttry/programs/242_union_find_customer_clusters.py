# description: Cluster customers who share a country or a tag with a union-find structure
# value: {"country_groups": [["c1", "c3"], ["c2", "c4", "c6"], ["c5"]], "tag_groups": [["c1", "c2", "c4", "c6"]], "country_merges": 3}
from collections import defaultdict

class DisjointSet:
    def __init__(self, items: list[str]) -> None:
        self.parent = {i: i for i in items}
        self.rank = dict.fromkeys(items, 0)

    def find(self, x: str) -> str:
        root = x
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[x] != root:
            self.parent[x], x = root, self.parent[x]
        return root

    def union(self, a: str, b: str) -> bool:
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return False
        if self.rank[ra] < self.rank[rb]:
            ra, rb = rb, ra
        self.parent[rb] = ra
        if self.rank[ra] == self.rank[rb]:
            self.rank[ra] += 1
        return True

    def groups(self) -> list[list[str]]:
        out: defaultdict[str, list[str]] = defaultdict(list)
        for item in self.parent:
            out[self.find(item)].append(item)
        return sorted(sorted(g) for g in out.values())

customers = await tools.list_customers()
by_country = DisjointSet([c["id"] for c in customers])
by_tag = DisjointSet([c["id"] for c in customers])
first_seen: dict[str, str] = {}
merges = 0
for c in customers:
    key = f"country:{c['address']['country']}"
    if key in first_seen:
        merges += by_country.union(first_seen[key], c["id"])
    first_seen.setdefault(key, c["id"])
    for tag in c["tags"]:
        key = f"tag:{tag}"
        if key in first_seen:
            by_tag.union(first_seen[key], c["id"])
        first_seen.setdefault(key, c["id"])

return {
    "country_groups": by_country.groups(),
    "tag_groups": [g for g in by_tag.groups() if len(g) > 1],
    "country_merges": merges,
}

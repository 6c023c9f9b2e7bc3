# description: Assign customers to support shards with a consistent-hash ring and measure rebalancing
# value: {"keys": 17, "load_before": {"shard-a": 4, "shard-b": 6, "shard-c": 7}, "load_after": {"shard-a": 4, "shard-c": 6, "shard-d": 7}, "moved_only_to_new": true, "moved_only_from_removed": true}
# logs: ["HashRing(nodes=3, points=48)", "17 keys; adding shard-d moved 6, removing shard-b moved 3"]
import bisect
import hashlib
from collections import Counter

class HashRing:
    def __init__(self, nodes: list[str], replicas: int = 16) -> None:
        self.replicas = replicas
        self._keys: list[int] = []
        self._owners: dict[int, str] = {}
        for node in nodes:
            self.add(node)

    @staticmethod
    def _hash(key: str) -> int:
        return int.from_bytes(hashlib.md5(key.encode()).digest()[:8], "big")

    def add(self, node: str) -> None:
        for i in range(self.replicas):
            h = self._hash(f"{node}#{i}")
            bisect.insort(self._keys, h)
            self._owners[h] = node

    def remove(self, node: str) -> None:
        self._keys = [k for k in self._keys if self._owners[k] != node]
        self._owners = {k: v for k, v in self._owners.items() if v != node}

    def owner(self, key: str) -> str:
        i = bisect.bisect(self._keys, self._hash(key)) % len(self._keys)
        return self._owners[self._keys[i]]

    def __repr__(self) -> str:
        return f"{type(self).__name__}(nodes={len(set(self._owners.values()))}, points={len(self._keys)})"

customers = await tools.list_customers()
orders = [o for c in customers for o in await tools.list_orders(customer_id=c["id"])]
keys = [c["email"] for c in customers] + [o["id"] for o in orders]
ring = HashRing(["shard-a", "shard-b", "shard-c"])
before = {k: ring.owner(k) for k in keys}
ring.add("shard-d")
after_add = {k: ring.owner(k) for k in keys}
ring.remove("shard-b")
after_remove = {k: ring.owner(k) for k in keys}
moved_add = sum(before[k] != after_add[k] for k in keys)
moved_remove = sum(after_add[k] != after_remove[k] for k in keys)
print(repr(ring))
print(f"{len(keys)} keys; adding shard-d moved {moved_add}, removing shard-b moved {moved_remove}")
return {
    "keys": len(keys),
    "load_before": dict(sorted(Counter(before.values()).items())),
    "load_after": dict(sorted(Counter(after_remove.values()).items())),
    "moved_only_to_new": all(after_add[k] in (before[k], "shard-d") for k in keys),
    "moved_only_from_removed": all(after_remove[k] == after_add[k] for k in keys if after_add[k] != "shard-b"),
}

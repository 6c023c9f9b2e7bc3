# description: Index customers by email in a case-insensitive mapping and resolve messy inbound addresses
# value: {"resolved": {"ADA@example.com": "c1", "grace@EXAMPLE.com": "c2", "nobody@example.com": null, "Alan@Example.Com": "c3"}, "removed": "c5", "size": 6, "keys": ["Katherine@Example.com", "ada@example.com", "alan@example.com"], "equal_to_dict": true, "k4": "c4"}
# logs: ["6 addresses; 'ALAN@example.com' in index: True"]
from collections.abc import MutableMapping, Iterator
from typing import Any

class CaseInsensitiveDict(MutableMapping):
    def __init__(self, data: dict[str, Any] | None = None, **kwargs: Any) -> None:
        self._store: dict[str, tuple[str, Any]] = {}
        self.update(data or {}, **kwargs)

    def __setitem__(self, key: str, value: Any) -> None:
        self._store[key.strip().casefold()] = (key, value)

    def __getitem__(self, key: str) -> Any:
        return self._store[key.strip().casefold()][1]

    def __delitem__(self, key: str) -> None:
        del self._store[key.strip().casefold()]

    def __iter__(self) -> Iterator[str]:
        return (original for original, _ in self._store.values())

    def __len__(self) -> int:
        return len(self._store)

    def __repr__(self) -> str:
        return f"CaseInsensitiveDict({dict(self.items())!r})"

customers = await tools.list_customers()
index = CaseInsensitiveDict({c["email"]: c["id"] for c in customers})
inbound = ["ADA@example.com", " grace@EXAMPLE.com ", "nobody@example.com", "Alan@Example.Com"]
resolved = {addr.strip(): index.get(addr, None) for addr in inbound}
index.setdefault("support@example.com", "staff")
removed = index.pop("EDSGER@example.com")
index["Katherine@Example.com"] = "c4"
print(f"{len(index)} addresses; 'ALAN@example.com' in index: {'ALAN@example.com' in index}")
return {
    "resolved": resolved,
    "removed": removed,
    "size": len(index),
    "keys": sorted(index)[:3],
    "equal_to_dict": index == {k: v for k, v in index.items()},
    "k4": index["katherine@example.com"],
}

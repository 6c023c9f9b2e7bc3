# description: A generic typed cache keyed by id over tool lookups, with a Protocol for the loaders and a bounded TypeVar
# value: {"names": ["Ada Lovelace", "Grace Hopper", "Katherine Johnson", "Margaret Hamilton"], "loads": 4, "peek": null, "biggest": 268.0, "generic_alias": "__main__.Cache[str, int]", "is_cache": true}
from typing import Awaitable, Callable, Generic, Optional, Protocol, TypeVar

K = TypeVar("K")
V = TypeVar("V")
N = TypeVar("N", int, float)

class HasId(Protocol):
    def __getitem__(self, key: str) -> object: ...

class Cache(Generic[K, V]):
    def __init__(self, loader: Callable[[K], Awaitable[V]]) -> None:
        self._loader = loader
        self._items: dict[K, V] = {}
        self.loads = 0

    async def get(self, key: K) -> V:
        if key not in self._items:
            self.loads += 1
            self._items[key] = await self._loader(key)
        return self._items[key]

    def peek(self, key: K) -> Optional[V]:
        return self._items.get(key)

def biggest(values: list[N]) -> N:
    return max(values)

customers: Cache[str, dict] = Cache(lambda cid: tools.get_customer(customer_id=cid))
orders = await tools.search_orders(filters={"status": ["pending"]}, limit=10)
names = []
for o in orders["orders"]:
    c = await customers.get(o["customer_id"])
    names.append(c["name"])
return {"names": names, "loads": customers.loads, "peek": customers.peek("c9"),
        "biggest": biggest([o["total"] for o in orders["orders"]]), "generic_alias": str(Cache[str, int]),
        "is_cache": isinstance(customers, Cache)}

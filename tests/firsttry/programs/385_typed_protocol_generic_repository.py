# description: Typed generic cache repository over customers and orders with Protocol and TypeVar
# value: {"rows": [{"customer": "Ada Lovelace", "tier": "enterprise", "order": "o-1001", "total": 118.25}, {"customer": "Ada Lovelace", "tier": "enterprise", "order": "o-1002", "total": 559.98}, {"customer": "Grace Hopper", "tier": "pro", "order": "o-1004", "total": 45.0}, {"customer": "Katherine Johnson", "tier": "pro", "order": "o-1007", "total": 357.99}, {"customer": "Margaret Hamilton", "tier": "enterprise", "order": "o-1009", "total": 447.0}, {"customer": "Margaret Hamilton", "tier": "enterprise", "order": "o-1010", "total": 268.0}], "cached": ["c1", "c2", "c4", "c6"], "size": 4, "stats": {"hits": 2, "misses": 4}, "ratio": 0.333, "first_big": "o-1002"}
from typing import Generic, TypeVar, Protocol, Optional, Callable, Awaitable, Literal, TypedDict, NamedTuple, Iterator

K = TypeVar("K")
V = TypeVar("V")


class HasId(Protocol):
    def __getitem__(self, key: str) -> object: ...


class CacheStats(NamedTuple):
    hits: int
    misses: int

    @property
    def ratio(self) -> float:
        total = self.hits + self.misses
        return self.hits / total if total else 0.0


class Repository(Generic[K, V]):
    def __init__(self, loader: Callable[[K], Awaitable[V]]) -> None:
        self._loader = loader
        self._store: dict[K, V] = {}
        self._hits = 0
        self._misses = 0

    async def get(self, key: K) -> V:
        if key in self._store:
            self._hits += 1
            return self._store[key]
        self._misses += 1
        value = await self._loader(key)
        self._store[key] = value
        return value

    def __iter__(self) -> Iterator[K]:
        return iter(self._store)

    def __len__(self) -> int:
        return len(self._store)

    @property
    def stats(self) -> CacheStats:
        return CacheStats(self._hits, self._misses)


class Row(TypedDict):
    customer: str
    tier: Literal["free", "pro", "enterprise"]
    order: str
    total: float


async def load_customer(cid: str) -> dict:
    return await tools.get_customer(customer_id=cid)


customers: Repository[str, dict] = Repository(load_customer)
rows: list[Row] = []
for oid in ["o-1001", "o-1002", "o-1004", "o-1007", "o-1009", "o-1010"]:
    order = await tools.get_order(order_id=oid)
    c = await customers.get(order["customer_id"])
    rows.append(Row(customer=c["name"], tier=c["tier"], order=oid, total=order["total"]))

def first(xs: list[Row], pred: Callable[[Row], bool]) -> Optional[Row]:
    return next((x for x in xs if pred(x)), None)

big = first(rows, lambda r: r["total"] > 500)
stats = customers.stats
return {
    "rows": rows,
    "cached": sorted(customers),
    "size": len(customers),
    "stats": stats._asdict(),
    "ratio": round(stats.ratio, 3),
    "first_big": big["order"] if big else None,
}

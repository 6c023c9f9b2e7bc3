# description: Strongly typed helpers over tool results
# value: {"by_country": {"NL": [{"id": "c5", "tier": "free"}], "UK": [{"id": "c1", "tier": "enterprise"}, {"id": "c3", "tier": "free"}], "US": [{"id": "c2", "tier": "pro"}, {"id": "c4", "tier": "pro"}, {"id": "c6", "tier": "enterprise"}]}, "first": "c1", "empty": null, "default": "none"}
from typing import Any, Callable, Iterable, Mapping, Sequence, TypeAlias, TypeVar, overload, Optional, Final

K = TypeVar("K")
V = TypeVar("V")
JSON: TypeAlias = dict[str, Any]
MAX_ITEMS: Final[int] = 3

def index_by(items: Iterable[V], key: Callable[[V], K]) -> dict[K, list[V]]:
    out: dict[K, list[V]] = {}
    for item in items:
        out.setdefault(key(item), []).append(item)
    return out

@overload
def first(xs: Sequence[V]) -> Optional[V]: ...
@overload
def first(xs: Sequence[V], default: V) -> V: ...
def first(xs, default=None):
    return xs[0] if xs else default

def pick(record: Mapping[str, Any], *keys: str) -> JSON:
    return {k: record[k] for k in keys if k in record}

customers: list[JSON] = await tools.list_customers()
by_country: dict[str, list[JSON]] = index_by(customers, lambda c: c["address"]["country"])
result: JSON = {country: [pick(c, "id", "tier") for c in cs][:MAX_ITEMS] for country, cs in sorted(by_country.items())}
empty: Optional[JSON] = first([])
return {"by_country": result, "first": first(customers)["id"], "empty": empty, "default": first([], "none")}

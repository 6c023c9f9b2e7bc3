# description: Cache customers and products in a generic repository class with a Protocol key
# value: {"buyer": "Katherine Johnson", "categories": ["accessories", "displays"], "has_c9": false, "count": 7, "in_stock": ["KB-01", "HD-10", "CB-05"]}
# logs: ["Repository(6 items) Repository(7 items)", "__main__.Repository[dict]"]
import asyncio
from typing import Generic, Protocol, TypeVar, Iterator, Callable

class HasId(Protocol):
    def __getitem__(self, key: str) -> object: ...

T = TypeVar("T")

class Repository(Generic[T]):
    def __init__(self, key: Callable[[T], str]):
        self._items: dict[str, T] = {}
        self._key = key

    def add(self, item: T) -> None:
        self._items[self._key(item)] = item

    def __getitem__(self, key: str) -> T:
        return self._items[key]

    def __contains__(self, key: object) -> bool:
        return key in self._items

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[T]:
        return iter(self._items.values())

    def __repr__(self) -> str:
        return f"Repository({len(self)} items)"

customers: Repository[dict] = Repository(lambda c: c["id"])
products: Repository[dict] = Repository(lambda p: p["sku"])
cs, ps = await asyncio.gather(tools.list_customers(), tools.list_products())
for c in cs:
    customers.add(c)
for p in ps:
    products.add(p)
order = await tools.get_order(order_id="o-1007")
print(customers, products)
print(Repository[dict])
return {
    "buyer": customers[order["customer_id"]]["name"],
    "categories": sorted({products[l["sku"]]["category"] for l in order["lines"]}),
    "has_c9": "c9" in customers,
    "count": len(products),
    "in_stock": [p["sku"] for p in products if p["in_stock"] > 10],
}

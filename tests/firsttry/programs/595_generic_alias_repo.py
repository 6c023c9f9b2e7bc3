# description: A generic Repository[T] class with a typed alias printed for debugging
# value: {"alias": "__main__.Repository[__main__.Item]", "type": "<class '__main__.Repository'>", "items": ["Item(sku='HS-07', price=149.0)"], "qual": "Repository"}
# logs: ["using __main__.Repository[__main__.Item]"]
from typing import Generic, TypeVar
from dataclasses import dataclass

T = TypeVar("T")

class Repository(Generic[T]):
    def __init__(self) -> None:
        self.items: dict[str, T] = {}

    def add(self, key: str, item: T) -> None:
        self.items[key] = item

@dataclass
class Item:
    sku: str
    price: float

repo: Repository[Item] = Repository()
for p in await tools.list_products(category="audio"):
    repo.add(p["sku"], Item(p["sku"], p["price"]))
alias = Repository[Item]
print(f"using {alias}")
return {"alias": str(alias), "type": repr(type(repo)), "items": [repr(i) for i in repo.items.values()], "qual": Repository.__qualname__}

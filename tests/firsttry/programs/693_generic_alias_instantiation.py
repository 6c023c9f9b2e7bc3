# description: A generic Page[T] container instantiated as Page[dict](...) for events
# value: {"ids": [1, 2, 3, 4], "has_more": true, "kind": "Page"}
from typing import Generic, TypeVar
from dataclasses import dataclass

T = TypeVar("T")

@dataclass
class Page(Generic[T]):
    items: list[T]
    cursor: str | None

    def map(self, fn):
        return Page([fn(x) for x in self.items], self.cursor)

raw = await tools.list_events(page_size=4)
page = Page[dict](raw["items"], raw["next_cursor"])
ids = page.map(lambda e: e["id"])
return {"ids": ids.items, "has_more": ids.cursor is not None, "kind": type(page).__name__}

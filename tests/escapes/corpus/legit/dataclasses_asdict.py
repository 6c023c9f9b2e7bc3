# value: {"name": "widget", "tags": ["a"], "price": 2.5}
from dataclasses import dataclass, field, asdict
@dataclass
class Item:
    name: str
    price: float = 0.0
    tags: list = field(default_factory=list)
item = Item("widget", 2.5)
item.tags.append("a")
return asdict(item)

# value: [true, true, 19.0, ["name", "price", "tags", "author", "notes"], {"name": "Dune", "price": 9.5, "tags": ["book"], "author": "Herbert", "notes": {}}, true, true, 3, 6.0, true]
import dataclasses
from dataclasses import dataclass, field
@dataclass
class Item:
    name: str
    price: float = 0.0
    tags: list = field(default_factory=list)
    def total(self, count):
        return self.price * count
@dataclass
class Book(Item):
    author: str = "unknown"
    notes: dict = field(default_factory=dict, repr=False, compare=False)
    def __post_init__(self):
        self.tags.append("book")
@dataclass(frozen=True, order=True)
class Version:
    major: int
    minor: int = 0
@dataclass(kw_only=True)
class Options:
    verbose: bool = False
    depth: int = 1
@dataclass
class Scaled:
    value: float
    factor: dataclasses.InitVar[float] = 1.0
    def __post_init__(self, factor):
        self.value = self.value * factor
book = Book("Dune", 9.5, author="Herbert")
other = Book("Dune", 9.5, author="Herbert")
other.notes["read"] = True
newer = dataclasses.replace(Version(1, 2), minor=3)
return [
    repr(book).endswith("Book(name='Dune', price=9.5, tags=['book'], author='Herbert')"), book == other, book.total(2), [f.name for f in dataclasses.fields(Book)],
    dataclasses.asdict(book), sorted([Version(2), Version(1, 5), newer]) == [Version(1, 3), Version(1, 5), Version(2)],
    repr(newer).endswith("Version(major=1, minor=3)"), Options(depth=3).depth, Scaled(2.0, 3.0).value, isinstance(book, Item),
]

# value: [{"title": "Alien", "year": 1979, "stars": 5}, 13, 2, 1, null, "x", 2.5, 3, 6, "7", true]
import typing
from typing import Generic, Optional, Protocol, TypedDict, TypeVar
T = TypeVar("T")
N = TypeVar("N", int, float)
class Movie(TypedDict):
    title: str
    year: int
class Review(Movie, total=False):
    stars: int
class HasArea(Protocol):
    def area(self) -> float: ...
class Square:
    def __init__(self, side: float) -> None:
        self.side = side
    def area(self) -> float:
        return self.side * self.side
def total_area(shapes: typing.List[HasArea]) -> float:
    return sum(shape.area() for shape in shapes)
class Stack(Generic[T]):
    def __init__(self) -> None:
        self.items: typing.List[T] = []
    def push(self, item: T) -> None:
        self.items.append(item)
    def pop(self) -> Optional[T]:
        return self.items.pop() if self.items else None
class Pair(Generic[T, N]):
    def __init__(self, first: T, second: N) -> None:
        self.first = first
        self.second = second
class Shape:
    sides = 0
class Triangle(Shape):
    sides = 3
def make(kind: typing.Type[Shape]) -> Shape:
    return kind()
UserId = typing.NewType("UserId", int)
review: Review = {"title": "Alien", "year": 1979}
review["stars"] = 5
stack = Stack[int]()
stack.push(1)
stack.push(2)
pair = Pair("x", 2.5)
return [
    review, total_area([Square(2), Square(3)]),
    stack.pop(), stack.pop(), stack.pop(), pair.first, pair.second,
    make(Triangle).sides, UserId(5) + 1, typing.cast(int, "7"), isinstance(stack, Stack),
]

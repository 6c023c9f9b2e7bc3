# value: [[1, 2], 2, true, 3, "Point(x: int, nxt: Optional[ForwardRef('Point')] = None)", 7, [1, 2], true, "T", true]
import collections
import dataclasses
import enum
import functools
import typing

T = typing.TypeVar("T")
UserId = typing.NewType("UserId", int)
Movie = typing.TypedDict("Movie", {"name": str})


class Box(typing.Generic[T]):
    def __init__(self, item: T) -> None:
        self.item = item


class Sized(typing.Protocol):
    def size(self) -> int: ...


@typing.overload
def parse(text: str) -> int: ...
@typing.overload
def parse(text: bytes) -> int: ...
def parse(text):
    return int(text)


@dataclasses.dataclass(frozen=True)
class Point:
    x: int
    nxt: typing.Optional["Point"] = None


@functools.total_ordering
class Version:
    def __init__(self, number):
        self.number = number

    def __eq__(self, other):
        return self.number == other.number

    def __lt__(self, other):
        return self.number < other.number


Pair = collections.namedtuple("Pair", "left right")
Colour = enum.Enum("Colour", "RED GREEN BLUE")
return [
    list(Pair(1, 2)),
    Colour.GREEN.value,
    Point(1, Point(2)) == Point(1, Point(2)),
    parse("3"),
    Point.__doc__,
    Box[int](7).item,
    [UserId(1), UserId(2)],
    Version(1) <= Version(2),
    T.__name__,
    typing.List["Point"] == typing.List["Point"],
]

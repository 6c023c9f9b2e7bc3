# description: Wrap tool lookups in typed generic helpers (TypeVar, Generic, ParamSpec, Self) and collect results
# value: {"temps": [75.2, 92.3], "chain": ["a", "b"], "doubled": [42, true], "failed": [null, "nope"], "biggest": [5, 1.5], "first": ["x", 3], "kind": "collector", "name": "temperature"}
# logs: ["[75.2, 92.3] temperature"]
import functools
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import ClassVar, Final, Generic, Literal, ParamSpec, Self, TypeVar, cast, overload

T = TypeVar("T")
N = TypeVar("N", int, float)
P = ParamSpec("P")
R = TypeVar("R")

MAX_ITEMS: Final = 5


@dataclass
class Result(Generic[T]):
    value: T | None = None
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None

    def map(self, fn: Callable[[T], R]) -> "Result[R]":
        return Result(fn(self.value)) if self.ok else Result(error=self.error)


@dataclass
class Collector(Generic[T]):
    kind: ClassVar[str] = "collector"
    items: list[T] = field(default_factory=list)

    def add(self, item: T) -> Self:
        if len(self.items) < MAX_ITEMS:
            self.items.append(item)
        return self


def logged(fn: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[Result[R]]]:
    calls: list[str] = []

    @functools.wraps(fn)
    async def inner(*args: P.args, **kwargs: P.kwargs) -> Result[R]:
        calls.append(f"{fn.__name__}{args}{sorted(kwargs.items())}")
        try:
            return Result(await fn(*args, **kwargs))
        except ToolCallError as e:
            return Result(error=e.type)

    return inner


@logged
async def temperature(city: str, unit: Literal["C", "F"] = "C") -> float:
    c = (await tools.get_weather(city=city))["celsius"]
    return c if unit == "C" else round(c * 9 / 5 + 32, 1)


def biggest(xs: list[N]) -> N:
    return max(xs)


@overload
def first(xs: list[str]) -> str: ...
@overload
def first(xs: list[int]) -> int: ...
def first(xs):
    return xs[0]


temps = Collector[float]()
for city in ("Tokyo", "Atlantis", "Cairo"):
    r = await temperature(city, unit="F")
    if r.ok:
        temps.add(cast(float, r.value))
chain = Collector[str]().add("a").add("b")
doubled = Result(21).map(lambda x: x * 2)
failed = Result[int](error="nope").map(lambda x: x * 2)
print(temps.items, temperature.__name__)
return {
    "temps": temps.items,
    "chain": chain.items,
    "doubled": [doubled.value, doubled.ok],
    "failed": [failed.value, failed.error],
    "biggest": [biggest([1, 5, 3]), biggest([1.5, 0.5])],
    "first": [first(["x", "y"]), first([3, 4])],
    "kind": Collector.kind,
    "name": temperature.__name__,
}

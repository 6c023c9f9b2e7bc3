# description: A generic Result type for tool calls
# value: {"temps": [33.5, "LookupError", 24.0], "stock": 0, "reprs": ["Result(value=33.5, error=None)", "Result(value=None, error='x')"], "eq": true}
from dataclasses import dataclass
from typing import Generic, TypeVar, Callable, Awaitable, Self

T = TypeVar("T")
U = TypeVar("U")

@dataclass(frozen=True)
class Result(Generic[T]):
    value: T | None = None
    error: str | None = None

    @classmethod
    def ok(cls, value: T) -> "Result[T]":
        return cls(value=value)

    @classmethod
    def fail(cls, error: str) -> "Result[T]":
        return cls(error=error)

    @property
    def is_ok(self) -> bool:
        return self.error is None

    def map(self, fn: Callable[[T], U]) -> "Result[U]":
        return Result.ok(fn(self.value)) if self.is_ok else Result.fail(self.error)

    def or_else(self, default: T) -> T:
        return self.value if self.is_ok else default

    def with_error(self, error: str) -> Self:
        return type(self)(self.value, error)

async def attempt(call: Callable[..., Awaitable[T]], **kwargs) -> Result[T]:
    try:
        return Result.ok(await call(**kwargs))
    except ToolCallError as e:
        return Result.fail(e.type or e.code or "unknown")

temps = [(await attempt(tools.get_weather, city=c)).map(lambda w: w["celsius"]) for c in ["Cairo", "Narnia", "Tokyo"]]
stock = await attempt(tools.get_stock, sku="NOPE")
return {
    "temps": [t.or_else(float("-inf")) if t.is_ok else t.error for t in temps],
    "stock": stock.or_else(0),
    "reprs": [repr(temps[0]), repr(stock.with_error("x"))],
    "eq": Result.ok(1) == Result(1),
}

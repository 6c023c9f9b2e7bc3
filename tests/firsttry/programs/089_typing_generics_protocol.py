# description: Cache tool results in a typed generic store
# value: {"hits": 3, "misses": 2, "summaries": [{"city": "Paris", "celsius": 64.4, "note": "humid"}, {"city": "Cairo", "celsius": 92.3, "note": null}], "first": "Grace"}
from typing import Generic, Literal, Optional, Protocol, TypeVar, TypedDict, Callable, Awaitable, Any

T = TypeVar("T")
K = TypeVar("K")

class Summary(TypedDict):
    city: str
    celsius: float
    note: Optional[str]

class Named(Protocol):
    name: str

class Store(Generic[K, T]):
    def __init__(self) -> None:
        self._items: dict[K, T] = {}
        self.hits = 0
        self.misses = 0

    async def get(self, key: K, load: Callable[[K], Awaitable[T]]) -> T:
        if key in self._items:
            self.hits += 1
            return self._items[key]
        self.misses += 1
        value = await load(key)
        self._items[key] = value
        return value

Unit = Literal["C", "F"]

def convert(c: float, unit: Unit = "C") -> float:
    return c if unit == "C" else round(c * 9 / 5 + 32, 1)

async def load_weather(city: str) -> dict[str, Any]:
    return await tools.get_weather(city=city)

store: Store[str, dict[str, Any]] = Store()
summaries: list[Summary] = []
for city in ["Paris", "Cairo", "Paris", "Paris", "Cairo"]:
    w = await store.get(city, load_weather)
    s: Summary = {"city": city, "celsius": convert(w["celsius"], "F"), "note": None if w["humidity"] < 50 else "humid"}
    summaries.append(s)

def first_name(x: Named) -> str:
    return x.name.split()[0]

class Person:
    def __init__(self, name: str) -> None:
        self.name = name

return {"hits": store.hits, "misses": store.misses, "summaries": summaries[:2], "first": first_name(Person("Grace Hopper"))}

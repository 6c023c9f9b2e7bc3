# description: Quote shipping for pending orders through abstract carrier classes with slots and abstract properties
# value: {"best": {"o-1003": ["fastco", 10.0], "o-1005": ["fastco", 12.5], "o-1008": ["fastco", 20.0], "o-1010": ["fastco", 12.5]}, "quotes_made": [4, 4], "abstract_error": "Can't instantiate abstract class Broken with abstract method base_fee", "slot_error": "AttributeError", "reprs": ["Courier('fastco')", "Freight('bigship')"], "isinstance": [true, true], "has_dict": false}
# logs: ["o-1003: {'fastco': 10.0, 'bigship': 23.0}", "o-1005: {'fastco': 12.5, 'bigship': 23.0}", "o-1008: {'fastco': 20.0, 'bigship': 24.0}", "o-1010: {'fastco': 12.5, 'bigship': 23.0}"]
from abc import ABC, abstractmethod


class Carrier(ABC):
    __slots__ = ("name", "_quotes")

    def __init__(self, name: str) -> None:
        self.name = name
        self._quotes = 0

    @property
    @abstractmethod
    def base_fee(self) -> float: ...

    @abstractmethod
    def per_item(self, qty: int) -> float: ...

    def quote(self, order: dict) -> float:
        self._quotes += 1
        items = sum(l["quantity"] for l in order["lines"])
        return round(self.base_fee + self.per_item(items), 2)

    @property
    def quotes(self) -> int:
        return self._quotes

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


class Courier(Carrier):
    __slots__ = ()

    @property
    def base_fee(self) -> float:
        return 7.5

    def per_item(self, qty: int) -> float:
        return 1.25 * qty


class Freight(Carrier):
    __slots__ = ("minimum",)

    def __init__(self, name: str, minimum: float) -> None:
        super().__init__(name)
        self.minimum = minimum

    @property
    def base_fee(self) -> float:
        return 20.0

    def per_item(self, qty: int) -> float:
        return max(self.minimum, 0.4 * qty)


class Broken(Carrier):
    def per_item(self, qty: int) -> float:
        return 0.0


carriers = [Courier("fastco"), Freight("bigship", minimum=3.0)]
orders = []
for cid in ("c1", "c2", "c4", "c6"):
    orders.extend(await tools.list_orders(customer_id=cid, status="pending"))

best = {}
for o in orders:
    quotes = {c.name: c.quote(o) for c in carriers}
    winner = min(quotes, key=quotes.get)
    best[o["id"]] = [winner, quotes[winner]]
    print(f"{o['id']}: {quotes}")

try:
    Broken("nope")
    abstract_error = None
except TypeError as e:
    abstract_error = str(e)
try:
    carriers[0].colour = "red"
    slot_error = None
except AttributeError as e:
    slot_error = type(e).__name__
return {
    "best": best,
    "quotes_made": [c.quotes for c in carriers],
    "abstract_error": abstract_error,
    "slot_error": slot_error,
    "reprs": [repr(c) for c in carriers],
    "isinstance": [isinstance(c, Carrier) for c in carriers],
    "has_dict": hasattr(carriers[0], "__dict__"),
}

# description: Total order quantities and prices with numeric classes that support sum, round, int, float and index
# value: {"total_q": "Qty(29)", "total_m": "\u20ac2,075.72", "avg": "\u20ac172.98", "float_int": [172.98, 172, 6], "index_uses": ["c", [0, 1, 2], "0b101", "0xff", [1, 2]], "order": [true, true, 10, [1, 2, 3]], "neg_abs": ["\u20ac-5.00", "\u20ac2.50"], "bool": [false, true, ["\u20ac1.00"]], "diff": "\u20ac7.50", "rmul": "Qty(6)", "round_builtin": "\u20ac2.67"}
# logs: ["Qty(29) items, \u20ac2,075.72, avg \u20ac172.98"]
from functools import total_ordering


@total_ordering
class Qty:
    def __init__(self, n: int) -> None:
        self.n = n

    def __add__(self, other):
        if isinstance(other, Qty):
            return Qty(self.n + other.n)
        if isinstance(other, int):
            return Qty(self.n + other)
        return NotImplemented

    __radd__ = __add__

    def __mul__(self, k: int) -> "Qty":
        return Qty(self.n * k)

    __rmul__ = __mul__

    def __index__(self) -> int:
        return self.n

    def __eq__(self, other) -> bool:
        return isinstance(other, Qty) and self.n == other.n

    def __lt__(self, other) -> bool:
        return self.n < other.n

    def __hash__(self) -> int:
        return hash(self.n)

    def __repr__(self) -> str:
        return f"Qty({self.n})"


class Money:
    def __init__(self, amount: float) -> None:
        self.amount = amount

    def __add__(self, other):
        return Money(self.amount + (other.amount if isinstance(other, Money) else other))

    def __radd__(self, other):
        return self.__add__(other)

    def __sub__(self, other):
        return Money(self.amount - other.amount)

    def __truediv__(self, k):
        return Money(self.amount / k)

    def __neg__(self):
        return Money(-self.amount)

    def __abs__(self):
        return Money(abs(self.amount))

    def __round__(self, ndigits=None):
        return Money(round(self.amount, ndigits))

    def __float__(self) -> float:
        return float(self.amount)

    def __int__(self) -> int:
        return int(self.amount)

    def __bool__(self) -> bool:
        return self.amount != 0

    def __str__(self) -> str:
        return f"€{self.amount:,.2f}"


qtys, prices = [], []
for cid in ("c1", "c4", "c6"):
    for o in await tools.list_orders(customer_id=cid):
        for l in o["lines"]:
            qtys.append(Qty(l["quantity"]))
            prices.append(Money(l["unit_price"] * l["quantity"]))

total_q = sum(qtys)
total_m = sum(prices)
avg = round(total_m / len(prices), 2)
letters = "abcdefghijklmnopqrstuvwxyz"
print(f"{total_q!r} items, {total_m}, avg {avg}")
return {
    "total_q": repr(total_q),
    "total_m": str(total_m),
    "avg": str(avg),
    "float_int": [float(avg), int(avg), int(Qty(3) * 2)],
    "index_uses": [letters[Qty(2)], list(range(Qty(3))), bin(Qty(5)), hex(Qty(255)), [0, 1, 2, 3][Qty(1):Qty(3)]],
    "order": [Qty(2) <= Qty(3), Qty(4) >= Qty(4), max(qtys).n, [q.n for q in sorted(set(qtys))[:3]]],
    "neg_abs": [str(-Money(5)), str(abs(Money(-2.5)))],
    "bool": [bool(Money(0)), bool(Money(0.01)), [str(m) for m in filter(None, [Money(0), Money(1)])]],
    "diff": str(Money(10) - Money(2.5)),
    "rmul": repr(3 * Qty(2)),
    "round_builtin": str(round(Money(2.675), 2)),
}

# description: Money value type with full operator overloading, reflected ops, __hash__, __lt__ and __format__-free rendering
# value: {"grand": "2,280.22 EUR", "avg": "207.29 EUR", "refund": "-19.50 EUR", "abs": "19.50 EUR", "over_avg": ["559.98 EUR", "447.00 EUR", "357.99 EUR", "268.00 EUR"], "unique": 11, "zero_falsy": true, "repr": "Money(559.98, 'EUR')", "mismatch": "currency mismatch USD vs EUR", "scaled": "177.38 EUR"}
from functools import total_ordering


@total_ordering
class Money:
    __slots__ = ("cents", "currency")

    def __init__(self, amount=0, currency="EUR", *, cents=None):
        self.cents = cents if cents is not None else round(amount * 100)
        self.currency = currency

    def _check(self, other):
        if isinstance(other, Money) and other.currency != self.currency:
            raise ValueError(f"currency mismatch {self.currency} vs {other.currency}")

    def __add__(self, other):
        if other == 0:
            return self
        if not isinstance(other, Money):
            return NotImplemented
        self._check(other)
        return Money(currency=self.currency, cents=self.cents + other.cents)

    __radd__ = __add__

    def __sub__(self, other):
        self._check(other)
        return Money(currency=self.currency, cents=self.cents - other.cents)

    def __mul__(self, k):
        if isinstance(k, (int, float)):
            return Money(currency=self.currency, cents=round(self.cents * k))
        return NotImplemented

    def __rmul__(self, k):
        return self * k

    def __truediv__(self, n):
        return Money(currency=self.currency, cents=round(self.cents / n))

    def __neg__(self):
        return Money(currency=self.currency, cents=-self.cents)

    def __abs__(self):
        return Money(currency=self.currency, cents=abs(self.cents))

    def __bool__(self):
        return self.cents != 0

    def __eq__(self, other):
        if isinstance(other, Money):
            return (self.cents, self.currency) == (other.cents, other.currency)
        if other == 0:
            return self.cents == 0
        return NotImplemented

    def __lt__(self, other):
        self._check(other)
        return self.cents < other.cents

    def __hash__(self):
        return hash((self.cents, self.currency))

    def __str__(self):
        sign = "-" if self.cents < 0 else ""
        return f"{sign}{abs(self.cents) // 100:,}.{abs(self.cents) % 100:02d} {self.currency}"

    def __repr__(self):
        return f"Money({self.cents / 100!r}, {self.currency!r})"


orders = [await tools.get_order(order_id=f"o-10{i:02d}") for i in range(1, 12)]
totals = [Money(o["total"]) for o in orders]
grand = sum(totals)
avg = grand / len(totals)
refund = -(2 * Money(9.75))
over = [str(t) for t in sorted(totals, reverse=True) if t > avg]
try:
    Money(1, "USD") + Money(1)
    mismatch = None
except ValueError as e:
    mismatch = str(e)
return {
    "grand": str(grand),
    "avg": str(avg),
    "refund": str(refund),
    "abs": str(abs(refund)),
    "over_avg": over,
    "unique": len(set(totals)),
    "zero_falsy": not Money(0),
    "repr": repr(max(totals)),
    "mismatch": mismatch,
    "scaled": str(totals[0] * 1.5),
}

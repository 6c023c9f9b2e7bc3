# description: Total order lines with a Money class that overloads arithmetic, comparison and format
# value: {"total": "268.00 EUR", "matches": true, "diff": "178.0 EUR", "sorted": ["Money(178.0, 'EUR')", "Money(90.0, 'EUR')"], "unique": 2, "ge": false, "scaled": "19.50 EUR"}
# logs: ["total 268.00 EUR, split     89.330 EUR Money(178.0, 'EUR') False", "cannot mix EUR and USD"]
from functools import total_ordering

@total_ordering
class Money:
    __slots__ = ("cents", "currency")

    def __init__(self, amount, currency="EUR"):
        self.cents = round(amount * 100)
        self.currency = currency

    @classmethod
    def from_cents(cls, cents, currency="EUR"):
        m = cls(0, currency)
        m.cents = cents
        return m

    def _check(self, other):
        if not isinstance(other, Money):
            return NotImplemented
        if other.currency != self.currency:
            raise ValueError(f"cannot mix {self.currency} and {other.currency}")
        return other

    def __add__(self, other):
        if other == 0:
            return self
        other = self._check(other)
        if other is NotImplemented:
            return NotImplemented
        return Money.from_cents(self.cents + other.cents, self.currency)

    __radd__ = __add__

    def __sub__(self, other):
        return self + (-other)

    def __neg__(self):
        return Money.from_cents(-self.cents, self.currency)

    def __mul__(self, k):
        return Money.from_cents(round(self.cents * k), self.currency)

    __rmul__ = __mul__

    def __truediv__(self, n):
        return Money.from_cents(self.cents // n, self.currency)

    def __eq__(self, other):
        if isinstance(other, Money):
            return (self.cents, self.currency) == (other.cents, other.currency)
        return other == 0 and self.cents == 0

    def __lt__(self, other):
        return self.cents < self._check(other).cents

    def __hash__(self):
        return hash((self.cents, self.currency))

    def __bool__(self):
        return self.cents != 0

    def __format__(self, spec):
        return f"{self.cents / 100:{spec or '.2f'}} {self.currency}"

    def __repr__(self):
        return f"Money({self.cents / 100!r}, {self.currency!r})"

order = await tools.get_order(order_id="o-1010")
lines = [Money(l["unit_price"]) * l["quantity"] for l in order["lines"]]
total = sum(lines)
print(f"total {total}, split {total / 3:>10.3f}", repr(max(lines)), bool(Money(0)))
try:
    total + Money(1, "USD")
except ValueError as e:
    print(e)
return {
    "total": f"{total}",
    "matches": total == Money(order["total"]),
    "diff": f"{total - lines[0]:,.1f}",
    "sorted": [repr(m) for m in sorted(lines, reverse=True)],
    "unique": len({Money(1), Money(1.0), Money(2)}),
    "ge": lines[0] >= lines[1],
    "scaled": f"{2 * Money(9.75)}",
}

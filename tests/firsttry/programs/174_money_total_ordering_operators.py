# description: Sum each customer's order totals with a small Money class and rank them
# value: {"top": "Ada Lovelace", "gap": "112.23 EUR", "average": "365.20 EUR", "third_of_top": "Money('288.7', 'EUR')", "max_ge_min": true, "zero_count": 2, "neg_abs": "112.2 EUR", "doubled": "20.010 EUR"}
# logs: ["Ada Lovelace              866.23 EUR", "Margaret Hamilton         754.00 EUR", "Katherine Johnson         455.49 EUR", "Grace Hopper              115.50 EUR", "Alan Turing                 0.00 EUR", "Edsger Dijkstra             0.00 EUR"]
from functools import total_ordering
from decimal import Decimal, ROUND_HALF_UP


@total_ordering
class Money:
    __slots__ = ("amount", "currency")

    def __init__(self, amount, currency="EUR"):
        self.amount = Decimal(str(amount))
        self.currency = currency

    def _check(self, other):
        if isinstance(other, Money) and other.currency != self.currency:
            raise ValueError(f"currency mismatch: {self.currency} vs {other.currency}")

    def __add__(self, other):
        if other == 0:
            return self
        if not isinstance(other, Money):
            return NotImplemented
        self._check(other)
        return Money(self.amount + other.amount, self.currency)

    __radd__ = __add__

    def __sub__(self, other):
        self._check(other)
        return Money(self.amount - other.amount, self.currency)

    def __mul__(self, factor):
        return Money(self.amount * Decimal(str(factor)), self.currency)

    __rmul__ = __mul__

    def __truediv__(self, n):
        return Money(self.amount / n, self.currency)

    def __neg__(self):
        return Money(-self.amount, self.currency)

    def __abs__(self):
        return Money(abs(self.amount), self.currency)

    def __round__(self, ndigits=2):
        q = Decimal(1).scaleb(-ndigits)
        return Money(self.amount.quantize(q, rounding=ROUND_HALF_UP), self.currency)

    def __eq__(self, other):
        if isinstance(other, (int, float)) and other == 0:
            return self.amount == 0
        if not isinstance(other, Money):
            return NotImplemented
        return (self.amount, self.currency) == (other.amount, other.currency)

    def __lt__(self, other):
        if not isinstance(other, Money):
            return NotImplemented
        self._check(other)
        return self.amount < other.amount

    def __hash__(self):
        return hash((self.amount, self.currency))

    def __bool__(self):
        return self.amount != 0

    def __format__(self, spec):
        spec = spec or ".2f"
        return f"{self.amount:{spec}} {self.currency}"

    def __repr__(self):
        return f"Money({str(self.amount)!r}, {self.currency!r})"


customers = await tools.list_customers()
totals = {}
for c in customers:
    orders = await tools.list_orders(customer_id=c["id"])
    totals[c["name"]] = sum((Money(o["total"]) for o in orders if o["status"] != "cancelled"), Money(0))

ranked = sorted(totals.items(), key=lambda kv: kv[1], reverse=True)
for name, m in ranked:
    print(f"{name:<20}{m:>12,.2f}")
top, second = ranked[0][1], ranked[1][1]
gap = top - second
avg = round(sum(totals.values()) / len(totals))
return {
    "top": ranked[0][0],
    "gap": f"{gap}",
    "average": f"{avg:.2f}",
    "third_of_top": repr(round(top / 3, 1)),
    "max_ge_min": max(totals.values()) >= min(totals.values()),
    "zero_count": sum(1 for m in totals.values() if not m),
    "neg_abs": format(abs(-gap), ".1f"),
    "doubled": f"{2 * Money('10.005'):.3f}",
}

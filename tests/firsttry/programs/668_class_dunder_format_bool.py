# description: A Money class with __format__, __bool__, __round__ and __add__ for sum()
# value: {"lines": ["     45.00 EUR", "     70.50 EUR", "total 115.50 EUR", "rounded Money(11600, 'EUR')"], "empty_is_falsy": true, "nonzero": true}
# logs: ["     45.00 EUR", "     70.50 EUR", "total 115.50 EUR", "rounded Money(11600, 'EUR')"]
class Money:
    def __init__(self, cents, currency="EUR"):
        self.cents = cents
        self.currency = currency

    def __format__(self, spec):
        amount = self.cents / 100
        if spec.endswith("c"):
            return f"{amount:{spec[:-1] or ''}f} {self.currency}"
        return format(amount, spec)

    def __bool__(self):
        return self.cents != 0

    def __round__(self, ndigits=None):
        return Money(round(self.cents, -2 if ndigits is None else ndigits), self.currency)

    def __add__(self, other):
        return Money(self.cents + other.cents, self.currency)

    def __repr__(self):
        return f"Money({self.cents}, {self.currency!r})"

orders = await tools.list_orders(customer_id="c2")
totals = [Money(round(o["total"] * 100)) for o in orders]
grand = sum(totals, Money(0))
empty = Money(0)
lines = [f"{t:>10.2c}" for t in totals] + [f"total {grand:.2c}", f"rounded {round(grand)!r}"]
print(*lines, sep="\n")
return {"lines": lines, "empty_is_falsy": not empty, "nonzero": bool(grand)}

# description: Total Margaret Hamilton's orders with a small Money class
# value: {"total": "$754.00", "largest": "$447.00"}
# logs: ["3 orders, total $754.00"]
class Money:
    def __init__(self, cents):
        self.cents = cents

    def __repr__(self):
        return f"${self.cents // 100}.{self.cents % 100:02d}"

    __str__ = __repr__

    def __add__(self, other):
        if isinstance(other, Money):
            return Money(self.cents + other.cents)
        if other == 0:
            return self
        return NotImplemented

    __radd__ = __add__

    def __eq__(self, other):
        return isinstance(other, Money) and self.cents == other.cents

    __hash__ = None


orders = await tools.list_orders(customer_id="c6")
amounts = [Money(round(o["total"] * 100)) for o in orders if o["status"] != "cancelled"]
total = sum(amounts)
print(f"{len(amounts)} orders, total {total}")
return {"total": str(total), "largest": repr(max(amounts, key=lambda m: m.cents))}

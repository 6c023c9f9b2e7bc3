# description: Build a basket with validated properties and price it in GBP
# value: {"lines": {"KB-01": 178.0, "HD-10": 117.0, "CB-05": 39.0}, "gbp": 283.9, "errors": ["quantity must be a positive int, got 0"]}
class BasketLine:
    def __init__(self, sku: str, unit_price: float, quantity: int = 1):
        self.sku = sku
        self.unit_price = unit_price
        self.quantity = quantity

    @property
    def quantity(self) -> int:
        return self._quantity

    @quantity.setter
    def quantity(self, value: int) -> None:
        if not isinstance(value, int) or value < 1:
            raise ValueError(f"quantity must be a positive int, got {value!r}")
        self._quantity = value

    @property
    def subtotal(self) -> float:
        return round(self.unit_price * self.quantity, 2)

products = {p["sku"]: p for p in await tools.list_products()}
rate = await tools.get_exchange_rate(base="EUR", quote="GBP")
basket = [BasketLine(sku, products[sku]["price"], q) for sku, q in [("KB-01", 2), ("HD-10", 1), ("CB-05", 4)]]
errors = []
try:
    basket[0].quantity = 0
except ValueError as exc:
    errors.append(str(exc))
basket[1].quantity += 2
total_eur = sum(line.subtotal for line in basket)
return {"lines": {l.sku: l.subtotal for l in basket}, "gbp": round(total_eur * rate, 2), "errors": errors}

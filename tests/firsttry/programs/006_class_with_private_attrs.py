# description: Analyse Margaret Hamilton's orders with a helper class
# value: {"total_spent": 754.0, "items": 8, "most_expensive": "o-1009"}
class OrderAnalyzer:
    def __init__(self, orders):
        self._orders = orders
        self._cache = {}

    def _active(self):
        if "active" not in self._cache:
            self._cache["active"] = [o for o in self._orders if o["status"] != "cancelled"]
        return self._cache["active"]

    def total_spent(self):
        return round(sum(o["total"] for o in self._active()), 2)

    def items_bought(self):
        return sum(line["quantity"] for o in self._active() for line in o["lines"])

    def most_expensive(self):
        return max(self._active(), key=lambda o: o["total"])["id"]


orders = await tools.list_orders(customer_id="c6")
analyzer = OrderAnalyzer(orders)
return {
    "total_spent": analyzer.total_spent(),
    "items": analyzer.items_bought(),
    "most_expensive": analyzer.most_expensive(),
}

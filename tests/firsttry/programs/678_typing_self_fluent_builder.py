# description: A fluent query builder with typing.Self return annotations
# value: {"filters": {"status": ["pending", "shipped"], "min_total": 150}, "ids": ["o-1002", "o-1003", "o-1009", "o-1010"]}
from typing import Self

class OrderQuery:
    def __init__(self):
        self._statuses = []
        self._min_total = None

    def status(self, *statuses: str) -> Self:
        self._statuses.extend(statuses)
        return self

    def min_total(self, amount: float) -> Self:
        self._min_total = amount
        return self

    def build(self) -> dict:
        filters = {}
        if self._statuses:
            filters["status"] = self._statuses
        if self._min_total is not None:
            filters["min_total"] = self._min_total
        return filters

filters = OrderQuery().status("pending", "shipped").min_total(150).build()
page = await tools.search_orders(filters=filters, limit=10)
return {"filters": filters, "ids": [o["id"] for o in page["orders"]]}

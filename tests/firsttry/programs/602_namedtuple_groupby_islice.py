# description: Group orders by month with a typing.NamedTuple and itertools.groupby, showing the first two groups
# value: {"first_two": {"2024-01": ["o-1011@2024-01"], "2024-02": ["o-1007@2024-02"]}, "months": 6, "biggest": {"month": "2024-06", "order_id": "o-1002", "total": 559.98}}
from typing import NamedTuple
from itertools import groupby, islice, chain
from operator import attrgetter

class Row(NamedTuple):
    month: str
    order_id: str
    total: float

    @property
    def label(self) -> str:
        return f"{self.order_id}@{self.month}"

customers = await tools.list_customers()
orders = list(chain.from_iterable([await tools.list_orders(customer_id=c["id"]) for c in customers]))
rows = sorted((Row(o["created"][:7], o["id"], o["total"]) for o in orders), key=attrgetter("month", "order_id"))
grouped = {month: [r.label for r in grp] for month, grp in groupby(rows, key=attrgetter("month"))}
first_two = dict(islice(grouped.items(), 2))
return {"first_two": first_two, "months": len(grouped), "biggest": max(rows, key=lambda r: r.total)._asdict()}

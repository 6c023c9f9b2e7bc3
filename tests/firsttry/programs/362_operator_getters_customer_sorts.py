# description: Sort and project customers and orders with operator.itemgetter, attrgetter and methodcaller
# value: {"by_country_city": ["c5", "c1", "c3", "c2", "c6", "c4"], "cities": ["London", "Arlington", "Manchester", "Hampton", "Eindhoven", "Boston"], "names_upper": ["ADA LOVELACE", "GRACE HOPPER"], "split_names": [["Ada", "Lovelace"], ["Grace", "Hopper"]], "by_status_total": ["o-1002", "o-1009", "o-1010", "o-1003", "o-1008"], "ids_totals": [["o-1001", 118.25], ["o-1002", 559.98], ["o-1003", 188.0]], "first_line_sku": ["KB-01", "MN-27", "HS-07", "LP-14"], "total": 2280.22, "qty": 24, "slice": ["a", "b"], "calc": {"+": 22, "-": 12, "*": 85, "/": 3.4, "//": 3}, "misc": [-4, true, true, 1, true, 1024, 7, "abcd"], "vip": ["c1", "c4", "c6"]}
# logs: ["['Edsger Dijkstra', 'Ada Lovelace', 'Alan Turing', 'Grace Hopper', 'Margaret Hamilton', 'Katherine Johnson']"]
import operator
from functools import reduce
from operator import attrgetter, itemgetter, methodcaller
from types import SimpleNamespace

raw = await tools.list_customers()
people = [
    SimpleNamespace(id=c["id"], name=c["name"], tier=c["tier"],
                    address=SimpleNamespace(**c["address"]), tags=c["tags"])
    for c in raw
]
by_country_city = sorted(people, key=attrgetter("address.country", "address.city"))
city_of = attrgetter("address.city")
names_upper = list(map(methodcaller("upper"), map(attrgetter("name"), people)))
split_names = [methodcaller("split", " ", 1)(p.name) for p in people]

orders = []
for c in raw:
    orders.extend(await tools.list_orders(customer_id=c["id"]))
by_status_total = sorted(orders, key=itemgetter("status", "total"), reverse=True)
pick = itemgetter("id", "total")
first_line_sku = [itemgetter(0)(o["lines"])["sku"] for o in orders]
ids_totals = list(map(pick, orders[:3]))
total = reduce(operator.add, map(itemgetter("total"), orders))
qty = reduce(operator.mul, [2, 3, 4], 1)
slice_get = itemgetter(slice(0, 2))
ops = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv, "//": operator.floordiv}
calc = {sym: fn(17, 5) for sym, fn in ops.items()}
print([p.name for p in by_country_city])
return {
    "by_country_city": [p.id for p in by_country_city],
    "cities": [city_of(p) for p in people],
    "names_upper": names_upper[:2],
    "split_names": split_names[:2],
    "by_status_total": [o["id"] for o in by_status_total][:5],
    "ids_totals": ids_totals,
    "first_line_sku": first_line_sku[:4],
    "total": round(total, 2),
    "qty": qty,
    "slice": slice_get(["a", "b", "c"]),
    "calc": calc,
    "misc": [operator.neg(4), operator.contains([1, 2], 2), operator.not_(0), operator.getitem({"k": 1}, "k"),
             operator.is_(None, None), operator.pow(2, 10), operator.index(7), operator.concat("ab", "cd")],
    "vip": [p.id for p in filter(lambda p: operator.contains(p.tags, "vip"), people)],
}

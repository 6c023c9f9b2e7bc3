# description: Rank orders for review with multi-key sorts, stable passes and operator getters
# value: {"ranked": ["o-1010", "o-1003", "o-1008", "o-1005", "o-1002"], "stable": [["c1", 559.98], ["c1", 188.0], ["c1", 118.25], ["c2", 70.5]], "by_attr": ["o-1011", "o-1010", "o-1009"], "ci": ["Alpha", "Bravo", "charlie", "delta"], "cs": ["Alpha", "Bravo", "charlie", "delta"], "len_then_alpha": ["Alpha", "Bravo", "delta", "charlie"], "upper": ["DELTA", "ALPHA"], "min_default": null, "max_key": "o-1002", "top_customer": "c1"}
from operator import itemgetter, attrgetter, methodcaller
from types import SimpleNamespace

page = await tools.search_orders(limit=10)
rows = page["orders"]
more = await tools.search_orders(cursor=page["next_cursor"], limit=10)
rows += more["orders"]
STATUS_RANK = {"pending": 0, "shipped": 1, "delivered": 2, "cancelled": 3}
ranked = sorted(rows, key=lambda o: (STATUS_RANK[o["status"]], -o["total"], o["id"]))
stable = sorted(rows, key=itemgetter("total"), reverse=True)
stable.sort(key=itemgetter("customer_id"))
objs = [SimpleNamespace(**r) for r in rows]
by_attr = sorted(objs, key=attrgetter("customer_id", "id"), reverse=True)
names = ["delta", "Alpha", "charlie", "Bravo"]
return {
    "ranked": [o["id"] for o in ranked[:5]],
    "stable": [(o["customer_id"], o["total"]) for o in stable[:4]],
    "by_attr": [o.id for o in by_attr[:3]],
    "ci": sorted(names, key=str.lower),
    "cs": sorted(names),
    "len_then_alpha": sorted(names, key=lambda s: (len(s), s)),
    "upper": list(map(methodcaller("upper"), names[:2])),
    "min_default": min([], default=None),
    "max_key": max(rows, key=itemgetter("total"))["id"],
    "top_customer": max(sorted(set(map(itemgetter("customer_id"), rows))), key=[r["customer_id"] for r in rows].count),
}

# description: Sort accessories by price and stock
# value: {"cheapest_first": ["CB-05", "HD-10", "LP-14"], "most_stock": "CB-05", "pairs": [["CB-05", 9.75], ["HD-10", 39.0], ["LP-14", 45.0]]}
from operator import itemgetter, attrgetter
from types import SimpleNamespace

products = await tools.list_products(category="accessories")
by_price = sorted(products, key=itemgetter("price"))
cheapest = [p["sku"] for p in by_price]

objs = [SimpleNamespace(**p) for p in products]
most_stock = max(objs, key=attrgetter("in_stock"))
get_pair = itemgetter("sku", "price")

return {
    "cheapest_first": cheapest,
    "most_stock": most_stock.sku,
    "pairs": [list(get_pair(p)) for p in by_price],
}

# description: Stream order lines through a generator pipeline
# value: {"lines": [["o-1001", "KB-01"], ["o-1002", "MN-27"], ["o-1003", "HS-07"]], "total": 797.98}
def iter_lines(orders):
    for order in orders:
        for line in order["lines"]:
            yield order["id"], line


def expensive(lines, threshold):
    for order_id, line in lines:
        if line["unit_price"] >= threshold:
            yield order_id, line["sku"], line["quantity"] * line["unit_price"]


orders = await tools.list_orders(customer_id="c1")
big = list(expensive(iter_lines(orders), threshold=50))
total = sum(amount for _, _, amount in big)
return {"lines": [[oid, sku] for oid, sku, _ in big], "total": round(total, 2)}

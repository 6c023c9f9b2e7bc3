# description: Normalise mixed tool results into rows
# value: {"rows": {"order": "object", "stock": "number", "rate": "number", "customer": "none"}, "eta": "2h15", "rate": 1.176}
order, stock, rate, customer = (
    await tools.get_order(order_id="o-1004"),
    await tools.get_stock(sku="LP-14"),
    await tools.get_exchange_rate(base="GBP", quote="EUR"),
    await tools.find_customer(email="nobody@example.com"),
)

rows = []
for i, item in enumerate([order, stock, rate, customer], start=1):
    if isinstance(item, dict):
        kind = "object"
    elif isinstance(item, bool):
        kind = "bool"
    elif isinstance(item, (int, float)):
        kind = "number"
    elif item is None:
        kind = "none"
    else:
        kind = type(item).__name__
    rows.append({"n": i, "kind": kind})

hours, minutes = divmod(135, 60)
labels = ["order", "stock", "rate", "customer"]
paired = {label: row["kind"] for label, row in zip(labels, rows, strict=True)}
return {"rows": paired, "eta": f"{hours}h{minutes:02d}", "rate": round(rate, 3)}

# description: Print an aligned product report using f-string format specs, nested widths and the = specifier
# value: {"total": "7,209.94", "share": "23.3%", "sign": "-3.5 +3.5  4", "bases": "11111111 377 ff 0XFF 11111111", "pad": "007 ***x*** ---y", "prec": "3.142", "sci": "1.234568e+04 1.23e-04 1.23457e+06", "underscore": "1_234_567", "debug": "rate=1.08, n = 255, name='Ada', total=7,209.9", "conv": "'hi' '\\xe9' 3", "braces": "{literal} 255", "dict_expr": "MECHA", "nested": "                   total:                    7,210", "pct": "KB has 14 units (12.3%)", "format_fn": ["50%", "1,234.5", "ab  |"]}
# logs: ["SKU   |          Name          |      EUR|      USD|Stock", "KB-01 |  Mechanical keyboard   |    89.00|    96.12|   14", "MS-02 |     Wireless mouse     |    25.50|    27.54|    0", "MN-27 |    27-inch monitor     |   279.99|   302.39|    6", "HD-10 |       USB-C hub        |    39.00|    42.12|   42", "CB-05 |     Braided cable      |     9.75|    10.53|  120", "LP-14 |      Laptop stand      |    45.00|    48.60|    3", "HS-07 |Noise-cancelling headset|   149.00|   160.92|    9"]
products = await tools.list_products()
rate = await tools.get_exchange_rate(base="EUR", quote="USD")
width = max(len(p["name"]) for p in products)
lines = [f"{'SKU':<6}|{'Name':^{width}}|{'EUR':>9}|{'USD':>9}|{'Stock':>5}"]
for p in products:
    usd = p["price"] * rate
    lines.append(f"{p['sku']:<6}|{p['name']:^{width}}|{p['price']:>9.2f}|{usd:>9,.2f}|{p['in_stock']:>5d}")
for line in lines:
    print(line)
total = sum(p["price"] * p["in_stock"] for p in products)
share = max(p["price"] * p["in_stock"] for p in products) / total
n = 255
prec = 3
name = "Ada"
debug = f"{rate=}, {n = }, {name=!r}, {total=:,.1f}"
return {
    "total": f"{total:,.2f}",
    "share": f"{share:.1%}",
    "sign": f"{-3.5:+.1f} {3.5:+.1f} {4: d}",
    "bases": f"{n:b} {n:o} {n:x} {n:#X} {n:08b}",
    "pad": f"{7:03d} {'x':*^7} {'y':->4}",
    "prec": f"{3.14159:.{prec}f}",
    "sci": f"{12345.678:e} {0.000123:.2e} {1234567:g}",
    "underscore": f"{1234567:_}",
    "debug": debug,
    "conv": f"{'hi'!r} {'é'!a} {3!s}",
    "braces": f"{{literal}} {n}",
    "dict_expr": f"{products[0]['name'].upper()[:5]}",
    "nested": f"{'total':>{width}}: {total:>{width},.0f}",
    "pct": "%s has %d units (%.1f%%)" % ("KB", 14, 12.345),
    "format_fn": [format(0.5, ".0%"), format(1234.5, ",.1f"), format("ab", "<4") + "|"],
}

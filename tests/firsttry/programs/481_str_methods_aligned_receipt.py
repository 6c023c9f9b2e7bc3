# description: Lay out an order receipt with str alignment methods and inspect SKUs with str predicates
# value: {"receipt": ["============= RECEIPT ==============", "                              O-1003", "Noise-cancelling hea..  1 x   149.00", "USB-C hub.............  1 x    39.00", "------------------------------------", "TOTAL                         188.00"], "checks": {"HS-07": [true, true, true, true], "HD-10": [true, true, true, false]}, "misc": {"zfill": "000042", "neg_zfill": "-00042", "swap": "aDA lOVELACE", "title": "Mechanical Keyboard", "istitle": true, "prefix": "1003", "suffix": "report", "tabs": "a   bc  d", "keepends": ["x\n", "y\n"], "rfind": 3, "find_missing": -1, "count": 2, "strip_chars": "total", "join": "HD-10, HS-07"}}
# logs: ["============= RECEIPT ==============", "                              O-1003", "Noise-cancelling hea..  1 x   149.00", "USB-C hub.............  1 x    39.00", "------------------------------------", "TOTAL                         188.00"]
order = await tools.get_order(order_id="o-1003")
width = 36
out = [" RECEIPT ".center(width, "="), order["id"].upper().rjust(width)]
for line in order["lines"]:
    label = line["name"][:20].ljust(22, ".")
    out.append(f"{label}{line['quantity']:>3} x{line['unit_price']:>9.2f}")
out.append("-" * width)
out.append("TOTAL".ljust(width - 10) + f"{order['total']:>10.2f}")
skus = [line["sku"] for line in order["lines"]]
checks = {
    sku: [sku.isupper(), sku.replace("-", "").isalnum(), sku[-2:].isdigit(), sku.startswith(("HS", "KB"))]
    for sku in skus
}
misc = {
    "zfill": "42".zfill(6), "neg_zfill": "-42".zfill(6), "swap": "Ada Lovelace".swapcase(),
    "title": "mechanical keyboard".title(), "istitle": "Usb-C Hub".istitle(),
    "prefix": "o-1003".removeprefix("o-"), "suffix": "report.csv".removesuffix(".csv"),
    "tabs": "a\tbc\td".expandtabs(4), "keepends": "x\ny\n".splitlines(keepends=True),
    "rfind": "a-b-c".rfind("-"), "find_missing": "abc".find("z"), "count": "banana".count("an"),
    "strip_chars": "--==total==--".strip("-="), "join": ", ".join(sorted(skus)),
}
print("\n".join(out))
return {"receipt": out, "checks": checks, "misc": misc}

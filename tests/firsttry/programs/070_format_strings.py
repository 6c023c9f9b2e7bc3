# description: Print an aligned price list
# value: {"header": "SKU     Product                        Price", "first_row": "KB-01   Mechanical keyboard            89.00", "summary": "7 products, cheapest CB-05", "repr": "'Mechanical keyboard'"}
products = await tools.list_products()

header = "{:<8}{:<26}{:>10}".format("SKU", "Product", "Price")
print(header)
print("-" * len(header))
rows = []
for p in products:
    row = "{:<8}{:<26}{:>10}".format(p["sku"], p["name"], format(p["price"], ",.2f"))
    print(row)
    rows.append(row)

summary = "%d products, cheapest %s" % (len(products), min(products, key=lambda p: p["price"])["sku"])
print(summary)
return {"header": header, "first_row": rows[0], "summary": summary, "repr": f"{products[0]['name']!r}"}

# description: Capture a printed table of products
# value: ["KB-01  Mechanical keyboard       89.00", "MS-02  Wireless mouse            25.50"]
# logs: ["captured 2 rows"]
import contextlib
import io

products = await tools.list_products(category="peripherals")

buf = io.StringIO()
with contextlib.redirect_stdout(buf):
    for p in products:
        print(f"{p['sku']:<6} {p['name']:<22} {p['price']:>8.2f}")

table = buf.getvalue()
print("captured", len(table.splitlines()), "rows")
return table.splitlines()

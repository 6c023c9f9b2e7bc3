# description: Export the catalogue as CSV
# value: {"lines": 8, "first": {"sku": "KB-01", "name": "Mechanical keyboard", "price": "89.0", "in_stock": "14"}, "out_of_stock": ["MS-02"]}
import csv
import io

products = await tools.list_products()

buffer = io.StringIO()
writer = csv.DictWriter(buffer, fieldnames=["sku", "name", "price", "in_stock"])
writer.writeheader()
for p in products:
    writer.writerow({k: p[k] for k in ("sku", "name", "price", "in_stock")})

csv_text = buffer.getvalue()
print(csv_text.splitlines()[0])

rows = list(csv.DictReader(io.StringIO(csv_text)))
return {"lines": len(csv_text.splitlines()), "first": rows[0], "out_of_stock": [r["sku"] for r in rows if r["in_stock"] == "0"]}

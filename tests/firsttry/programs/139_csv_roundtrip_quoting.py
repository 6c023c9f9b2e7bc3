# description: Export order lines to CSV with quoting and read them back
# value: {"first_line": "\"o-1001\",\"KB-01\",\"Mechanical keyboard\",1,89.0", "rows": 8, "total": 981.73, "qty_type": "float", "tsv": ["o-1001\tKB-01\tMechanical keyboard\t1.0\t89.0", "o-1001\tCB-05\tBraided cable\t3.0\t9.75"]}
import csv
import io

buf = io.StringIO()
writer = csv.writer(buf, quoting=csv.QUOTE_NONNUMERIC, lineterminator="\n")
writer.writerow(["order", "sku", "name", "qty", "price"])
for cid in ["c1", "c2"]:
    for o in await tools.list_orders(customer_id=cid):
        writer.writerows([o["id"], l["sku"], l["name"], l["quantity"], l["unit_price"]] for l in o["lines"])
text = buf.getvalue()
rows = list(csv.reader(io.StringIO(text), quoting=csv.QUOTE_NONNUMERIC))
header, *body = rows
total = sum(r[3] * r[4] for r in body)
tsv = io.StringIO()
csv.DictWriter(tsv, fieldnames=header, delimiter="\t", extrasaction="ignore").writerows(dict(zip(header, r)) for r in body[:2])
return {"first_line": text.splitlines()[1], "rows": len(body), "total": round(total, 2), "qty_type": type(body[0][3]).__name__, "tsv": tsv.getvalue().splitlines()}

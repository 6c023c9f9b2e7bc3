# description: Export order lines to CSV, read them back, and parse the log with the csv module
# value: {"lines": 12, "header": "order,sku,qty,price,note,missing", "first": "o-1001,KB-01,1,89.0,\"say \"\"delivered\"\", ok\",n/a", "back_first": {"order": "o-1001", "sku": "KB-01", "qty": "1", "price": "89.0", "note": "say \"delivered\", ok", "missing": "n/a"}, "qty_total": 26, "numeric": [["sku", "qty", "price"], ["KB-01", 1.0, 89.0], ["CB-05", 3.0, 9.75], ["MN-27", 2.0, 279.99]], "log_rows": [["2024-06-15", "08:03:44", "ERROR", "billing"], ["2024-06-15", "08:10:02", "WARN", "billing"], ["2024-06-15", "08:12:45", "ERROR", "billing"]], "tsv": "a b\t\"c\td\"\t3\r\n", "semi": [["x", "y;z", "w"]], "dialects": ["excel", "excel-tab", "unix"]}
# logs: ["order,sku,qty,price,note,missing", "o-1001,KB-01,1,89.0,\"say \"\"delivered\"\", ok\",n/a"]
import csv
import io

rows = []
for cid in ("c1", "c2", "c4"):
    for o in await tools.list_orders(customer_id=cid):
        for line in o["lines"]:
            rows.append({"order": o["id"], "customer": cid, "sku": line["sku"], "name": line["name"],
                         "qty": line["quantity"], "price": line["unit_price"], "note": f'say "{o["status"]}", ok'})

buf = io.StringIO()
writer = csv.DictWriter(buf, fieldnames=["order", "sku", "qty", "price", "note", "missing"],
                        extrasaction="ignore", restval="n/a", lineterminator="\n")
writer.writeheader()
writer.writerows(rows)
text = buf.getvalue()

back = list(csv.DictReader(io.StringIO(text)))
qty_total = sum(int(r["qty"]) for r in back)

out2 = io.StringIO()
w2 = csv.writer(out2, quoting=csv.QUOTE_NONNUMERIC, lineterminator="\r\n")
w2.writerow(["sku", "qty", "price"])
for r in rows[:3]:
    w2.writerow([r["sku"], r["qty"], r["price"]])
numeric = list(csv.reader(io.StringIO(out2.getvalue()), quoting=csv.QUOTE_NONNUMERIC))

logs = await tools.fetch_logs(service="billing")
log_rows = list(csv.reader(io.StringIO(logs), delimiter=" ", skipinitialspace=True))
tsv = io.StringIO()
csv.writer(tsv, dialect="excel-tab").writerow(["a b", "c\td", 3])
semi = list(csv.reader(["x;'y;z';w"], delimiter=";", quotechar="'"))

print(text.splitlines()[0])
print(text.splitlines()[1])
return {
    "lines": len(text.splitlines()),
    "header": text.splitlines()[0],
    "first": text.splitlines()[1],
    "back_first": back[0],
    "qty_total": qty_total,
    "numeric": numeric,
    "log_rows": [r[:4] for r in log_rows],
    "tsv": tsv.getvalue(),
    "semi": semi,
    "dialects": sorted(csv.list_dialects()),
}

# description: Export orders to CSV with DictWriter and read them back with csv.reader and DictReader
# value: {"header": ["order", "customer", "status", "total", "items"], "n": 7, "last": ["o-x", "Eve \"The\" Tester, Jr.", "pending", "", ""], "total": 1620.23, "empty_field": true, "tsv": "a b\t\"c\td\"\t3\n", "delim": ";", "first_line": "o-1001,Ada Lovelace,delivered,118.25,1x Mechanical keyboard; 3x Braided cable"}
# logs: ["o-x,\"Eve \"\"The\"\" Tester, Jr.\",pending,,"]
import csv
import io

rows = []
for c in await tools.list_customers(tier="enterprise"):
    for o in await tools.list_orders(customer_id=c["id"]):
        rows.append({"order": o["id"], "customer": c["name"], "status": o["status"], "total": o["total"],
                     "items": "; ".join(f'{l["quantity"]}x {l["name"]}' for l in o["lines"]), "internal": "x"})

buf = io.StringIO()
fields = ["order", "customer", "status", "total", "items"]
w = csv.DictWriter(buf, fieldnames=fields, extrasaction="ignore", lineterminator="\n")
w.writeheader()
w.writerows(rows)
w.writerow({"order": "o-x", "customer": 'Eve "The" Tester, Jr.', "status": "pending"})
text = buf.getvalue()

reader = csv.reader(io.StringIO(text))
header = next(reader)
body = list(reader)
dict_rows = list(csv.DictReader(io.StringIO(text)))
total = round(sum(float(r["total"]) for r in dict_rows if r["total"]), 2)

tsv = io.StringIO()
tw = csv.writer(tsv, delimiter="\t", quoting=csv.QUOTE_MINIMAL, lineterminator="\n")
tw.writerow(["a b", "c\td", 3])
sniff = csv.Sniffer().sniff("a;b;c\n1;2;3\n")
print(text.splitlines()[-1])
return {
    "header": header,
    "n": len(body),
    "last": body[-1],
    "total": total,
    "empty_field": dict_rows[-1]["total"] == "",
    "tsv": tsv.getvalue(),
    "delim": sniff.delimiter,
    "first_line": text.splitlines()[1],
}

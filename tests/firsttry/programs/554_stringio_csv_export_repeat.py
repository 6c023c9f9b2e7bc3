# description: Parse the doubled event export with csv and io.StringIO
# value: {"rows": 94, "refunds": 1245.88, "table": ["kind,count", "error,14", "login,26", "logout,14", "purchase,28", "refund,12"]}
import csv, io
text = await tools.export_events(repeat=2)
rows = list(csv.DictReader(io.StringIO(text)))
refunds = sum(float(r["amount"]) for r in rows if r["kind"] == "refund")
buf = io.StringIO()
writer = csv.writer(buf)
writer.writerow(["kind", "count"])
for kind in sorted({r["kind"] for r in rows}):
    writer.writerow([kind, sum(1 for r in rows if r["kind"] == kind)])
return {"rows": len(rows), "refunds": round(refunds, 2), "table": buf.getvalue().splitlines()}

# description: Export the audit log 200 times over (a large text result) and summarise it with csv
# value: {"rows": 9400, "amount": 397360.0, "kinds": {"error": 1400, "login": 2600, "logout": 1400, "purchase": 2800, "refund": 1200}}
# logs: ["export is 413830 characters"]
import csv, io
text = await tools.export_events(repeat=200)
print(f"export is {len(text)} characters")
reader = csv.DictReader(io.StringIO(text))
count = 0
amount = 0.0
kinds = {}
for row in reader:
    count += 1
    amount += float(row["amount"])
    kinds[row["kind"]] = kinds.get(row["kind"], 0) + 1
return {"rows": count, "amount": round(amount, 2), "kinds": dict(sorted(kinds.items()))}

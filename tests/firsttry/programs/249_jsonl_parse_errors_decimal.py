# description: Parse a JSON Lines export with exact decimals, reporting malformed lines with positions
# value: {"ids": [1, 2, 3, 4, 5, 6], "total": "320.97", "errors": ["line 3 col 48: Expecting property name enclosed in double quotes", "line 5: amount 1E+400 out of range", "line 9 col 12: Expecting ',' delimiter"], "types": ["Decimal"]}
# logs: ["6 good rows, 3 errors, total 320.97"]
import json
from decimal import Decimal

events = (await tools.list_events(page_size=6))["items"]
lines = [json.dumps({"id": e["id"], "amount": e["amount"], "kind": e["kind"]}) for e in events]
lines.insert(2, '{"id": 99, "amount": 10.10, "kind": "purchase",}')
lines.insert(4, '{"id": 100, "amount": 1e400}')
lines.append('{"id": 101 "amount": 3}')
lines.append("")
export = "\n".join(lines)

good: list[dict] = []
errors: list[str] = []
for lineno, line in enumerate(export.splitlines(), 1):
    if not line.strip():
        continue
    try:
        row = json.loads(line, parse_float=Decimal)
    except json.JSONDecodeError as e:
        errors.append(f"line {lineno} col {e.colno}: {e.msg}")
        continue
    amount = row.get("amount")
    if isinstance(amount, Decimal) and amount.adjusted() > 6:
        errors.append(f"line {lineno}: amount {amount:E} out of range")
        continue
    good.append(row)

total = sum((Decimal(r["amount"]) for r in good), Decimal("0"))
print(f"{len(good)} good rows, {len(errors)} errors, total {total}")
return {
    "ids": [r["id"] for r in good],
    "total": str(total.quantize(Decimal("0.01"))),
    "errors": errors,
    "types": sorted({type(r["amount"]).__name__ for r in good}),
}

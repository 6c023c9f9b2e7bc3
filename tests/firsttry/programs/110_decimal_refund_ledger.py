# description: Build a refund ledger with exact decimal arithmetic
# value: {"rows": [{"order": "o-1003", "gross": "188.0", "net": "156.67", "vat": "31.33", "fee": "2.82"}, {"order": "o-1005", "gross": "70.50", "net": "58.75", "vat": "11.75", "fee": "1.05"}, {"order": "o-1008", "gross": "97.50", "net": "81.25", "vat": "16.25", "fee": "1.46"}, {"order": "o-1010", "gross": "268.0", "net": "223.33", "vat": "44.67", "fee": "4.02"}], "total": "624.00", "total_is_exact": true}
from decimal import Decimal, ROUND_HALF_EVEN, ROUND_DOWN, getcontext

getcontext().prec = 28
CENT = Decimal("0.01")
VAT = Decimal("0.20")

pending = []
for cid in ("c1", "c2", "c4", "c6"):
    pending += await tools.list_orders(customer_id=cid, status="pending")

ledger = []
for order in pending:
    gross = sum((Decimal(str(l["unit_price"])) * l["quantity"] for l in order["lines"]), Decimal("0"))
    net = (gross / (1 + VAT)).quantize(CENT, rounding=ROUND_HALF_EVEN)
    vat = gross - net
    fee = (gross * Decimal("0.015")).quantize(CENT, rounding=ROUND_DOWN)
    ledger.append({"order": order["id"], "gross": str(gross), "net": str(net), "vat": str(vat), "fee": f"{fee:.2f}"})

total = sum(Decimal(row["gross"]) for row in ledger)
return {"rows": ledger, "total": str(total), "total_is_exact": total == Decimal(str(round(sum(o["total"] for o in pending), 2)))}

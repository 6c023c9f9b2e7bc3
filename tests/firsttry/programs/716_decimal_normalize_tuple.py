# description: Decimal normalize, as_tuple, to_integral_value and ROUND_HALF_EVEN on invoice totals
# value: {"rows": [{"total": "447.0", "norm": "447", "vat": "89.40", "ceil": "447", "exp": -1, "sci": "4.47e+2"}, {"total": "268.0", "norm": "268", "vat": "53.60", "ceil": "268", "exp": -1, "sci": "2.68e+2"}, {"total": "39.0", "norm": "39", "vat": "7.80", "ceil": "39", "exp": -1, "sci": "3.90e+1"}], "sum": "754.0", "big": "1001"}
from decimal import Decimal, ROUND_HALF_EVEN, ROUND_CEILING

orders = await tools.list_orders(customer_id="c6")
totals = [Decimal(str(o["total"])) for o in orders]
out = []
for t in totals:
    vat = (t * Decimal("0.2")).quantize(Decimal("0.01"), rounding=ROUND_HALF_EVEN)
    out.append({
        "total": str(t), "norm": str(t.normalize()), "vat": str(vat),
        "ceil": str(t.to_integral_value(rounding=ROUND_CEILING)),
        "exp": t.as_tuple().exponent, "sci": f"{t:.2e}",
    })
return {"rows": out, "sum": str(sum(totals, Decimal(0))), "big": str(Decimal("1e3") + 1)}

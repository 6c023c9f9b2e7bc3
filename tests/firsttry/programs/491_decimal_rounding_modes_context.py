# description: Compare Decimal rounding modes for VAT on order totals, with quantize, localcontext and as_tuple
# value: {"rows": [{"id": "o-1009", "raw": "84.930", "half_up": "84.93", "half_even": "84.93", "down": "84.93", "ceiling": "85"}, {"id": "o-1010", "raw": "50.920", "half_up": "50.92", "half_even": "50.92", "down": "50.92", "ceiling": "51"}, {"id": "o-1011", "raw": "7.410", "half_up": "7.41", "half_even": "7.41", "down": "7.41", "ceiling": "8"}], "third": "0.33333", "prec": 28, "bad": "InvalidOperation", "normalize": "120.5", "as_tuple": [1, 2, 0, 5, 0, 0], "exp": -3, "integral": "2", "cmp": 0, "sci": "1E+3", "fmt": "1,234.57", "eq": true}
from decimal import (ROUND_CEILING, ROUND_DOWN, ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal,
                     InvalidOperation, getcontext, localcontext)

orders = await tools.list_orders(customer_id="c6")
VAT = Decimal("0.19")
CENT = Decimal("0.01")
rows = []
for o in orders:
    total = Decimal(str(o["total"]))
    vat = total * VAT
    rows.append({
        "id": o["id"], "raw": str(vat),
        "half_up": str(vat.quantize(CENT, rounding=ROUND_HALF_UP)),
        "half_even": str(vat.quantize(CENT, rounding=ROUND_HALF_EVEN)),
        "down": str(vat.quantize(CENT, rounding=ROUND_DOWN)),
        "ceiling": str(vat.quantize(Decimal("1"), rounding=ROUND_CEILING)),
    })
with localcontext() as ctx:
    ctx.prec = 5
    third = Decimal(1) / Decimal(3)
try:
    Decimal("abc")
    bad = None
except InvalidOperation as exc:
    bad = type(exc).__name__
d = Decimal("120.500")
return {"rows": rows, "third": str(third), "prec": getcontext().prec, "bad": bad,
        "normalize": str(d.normalize()), "as_tuple": list(d.as_tuple().digits), "exp": d.as_tuple().exponent,
        "integral": str(Decimal("2.5").to_integral_value()), "cmp": int(Decimal("1.0").compare(Decimal("1.00"))),
        "sci": str(Decimal("1E+3")), "fmt": f"{Decimal('1234.5678'):,.2f}", "eq": Decimal("0.1") + Decimal("0.2") == Decimal("0.3")}

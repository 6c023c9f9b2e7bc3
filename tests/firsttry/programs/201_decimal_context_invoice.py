# description: Produce a VAT invoice with Decimal contexts, quantize rounding modes and exact sums
# value: {"lines": [{"sku": "HS-07", "net": "149.00", "vat": "31.29", "gross": "180.29"}, {"sku": "HD-10", "net": "39.00", "vat": "8.19", "gross": "47.19"}], "net_total": "188.00", "gross_total": "227.48", "in_gbp": "193.36", "third": "0.333333", "split": "75.8266", "ceil": "2.001", "prec_default": 28, "halves": ["3", "2", "4", "4", "-3", "-2"], "bad": "InvalidOperation", "dz": "DivisionByZero", "float_vs_str": ["0.1000000000", "0.1"], "tuple": [1, 5, 0], "normalize": "1.5", "cmp": true}
from decimal import Decimal, localcontext, getcontext, ROUND_HALF_UP, ROUND_HALF_EVEN, ROUND_DOWN, ROUND_CEILING, InvalidOperation, DivisionByZero

CENT = Decimal("0.01")
VAT = Decimal("0.21")
order = await tools.get_order(order_id="o-1003")
rate = Decimal(str(await tools.get_exchange_rate(base="EUR", quote="GBP")))
lines = []
for l in order["lines"]:
    net = (Decimal(str(l["unit_price"])) * l["quantity"]).quantize(CENT)
    vat = (net * VAT).quantize(CENT, rounding=ROUND_HALF_UP)
    lines.append({"sku": l["sku"], "net": str(net), "vat": str(vat), "gross": str(net + vat)})
net_total = sum((Decimal(x["net"]) for x in lines), Decimal("0"))
gross_total = sum(Decimal(x["gross"]) for x in lines)
in_gbp = (gross_total * rate).quantize(CENT, rounding=ROUND_HALF_EVEN)

with localcontext() as ctx:
    ctx.prec = 6
    ctx.rounding = ROUND_DOWN
    third = Decimal(1) / Decimal(3)
    split = gross_total / 3

with localcontext(prec=4, rounding=ROUND_CEILING):
    ceil = +Decimal("2.00001")

halves = [str(Decimal(x).quantize(Decimal("1"), rounding=m)) for x in ("2.5", "3.5", "-2.5") for m in (ROUND_HALF_UP, ROUND_HALF_EVEN)]
try:
    Decimal("abc")
    bad = None
except InvalidOperation as e:
    bad = type(e).__name__
try:
    Decimal(1) / Decimal(0)
    dz = None
except DivisionByZero as e:
    dz = type(e).__name__
return {
    "lines": lines,
    "net_total": str(net_total),
    "gross_total": f"{gross_total:,.2f}",
    "in_gbp": str(in_gbp),
    "third": str(third),
    "split": str(split),
    "ceil": str(ceil),
    "prec_default": getcontext().prec,
    "halves": halves,
    "bad": bad,
    "dz": dz,
    "float_vs_str": [str(Decimal(0.1))[:12], str(Decimal("0.1"))],
    "tuple": list(Decimal("-1.50").as_tuple().digits),
    "normalize": str(Decimal("1.500").normalize()),
    "cmp": Decimal("1.10") == Decimal("1.1"),
}

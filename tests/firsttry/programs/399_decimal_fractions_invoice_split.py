# description: Build invoices with Decimal money (quantize, ROUND_HALF_UP, localcontext) and split with Fraction
# value: {"invoices": [{"customer": "c1", "net": "866.23", "vat": "173.25", "gross": "1039.48", "thirds": ["346.5", "346.49", "346.49"]}, {"customer": "c5", "net": "0", "vat": "0.00", "gross": "0.00", "thirds": ["0", "0", "0"]}, {"customer": "c6", "net": "754.00", "vat": "0.00", "gross": "754.00", "thirds": ["251.34", "251.33", "251.33"]}, {"customer": "c2", "net": "115.50", "vat": "0.00", "gross": "115.50", "thirds": ["38.5", "38.5", "38.5"]}], "third": "0.333333", "prec": 28, "ratio": "13/24", "ratio_float": 0.5416666666666666, "approx": "1/10", "floor": "19.99", "tuple": [1, 2, 5, 0]}
from decimal import Decimal, ROUND_HALF_UP, ROUND_DOWN, localcontext, getcontext
from fractions import Fraction

CENT = Decimal("0.01")
VAT = {"UK": Decimal("0.20"), "NL": Decimal("0.21"), "US": Decimal("0")}


def money(x) -> Decimal:
    return Decimal(str(x)).quantize(CENT, rounding=ROUND_HALF_UP)


def split(amount: Decimal, weights: list[int]) -> list[Decimal]:
    total_w = sum(weights)
    shares = [Fraction(w, total_w) for w in weights]
    cents = int(amount * 100)
    parts = [int(cents * s) for s in shares]
    for i in range(cents - sum(parts)):
        parts[i % len(parts)] += 1
    return [Decimal(p) / 100 for p in parts]


invoices = []
for cid in ("c1", "c5", "c6", "c2"):
    c = await tools.get_customer(customer_id=cid)
    orders = await tools.list_orders(customer_id=cid)
    net = sum((money(l["unit_price"]) * l["quantity"] for o in orders for l in o["lines"]), Decimal("0"))
    rate = VAT[c["address"]["country"]]
    vat = (net * rate).quantize(CENT, rounding=ROUND_HALF_UP)
    invoices.append({"customer": cid, "net": str(net), "vat": str(vat), "gross": str(net + vat),
                     "thirds": [str(p) for p in split(net + vat, [1, 1, 1])]})

with localcontext() as ctx:
    ctx.prec = 6
    third = Decimal(1) / Decimal(3)
precision_after = getcontext().prec
ratio = Fraction(3, 8) + Fraction(1, 6)
approx = Fraction(0.1).limit_denominator(100)
return {
    "invoices": invoices,
    "third": str(third),
    "prec": precision_after,
    "ratio": str(ratio),
    "ratio_float": float(ratio),
    "approx": f"{approx.numerator}/{approx.denominator}",
    "floor": str(Decimal("19.999").quantize(CENT, rounding=ROUND_DOWN)),
    "tuple": list(Decimal("-12.50").as_tuple().digits),
}

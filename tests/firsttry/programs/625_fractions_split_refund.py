# description: Split a refund fairly across order lines with Fractions
# value: {"shares": {"MN-27": [9333, 100], "HD-10": [26, 1]}, "cents": {"MN-27": 93.33, "HD-10": 26.0}, "ratio": [3, 2], "pi_ish": "355/113"}
# logs: ["11933/100 11933/100 119.33"]
from fractions import Fraction

order = await tools.get_order(order_id="o-1007")
refund = Fraction(str(order["total"])) / 3
weights = {l["sku"]: Fraction(l["quantity"] * round(l["unit_price"] * 100), 100) for l in order["lines"]}
total_w = sum(weights.values())
shares = {sku: refund * w / total_w for sku, w in weights.items()}
print(refund, refund.limit_denominator(100), float(refund))
assert sum(shares.values()) == refund
return {
    "shares": {sku: [s.numerator, s.denominator] for sku, s in shares.items()},
    "cents": {sku: round(float(s), 2) for sku, s in shares.items()},
    "ratio": list(Fraction(6, 4).as_integer_ratio()),
    "pi_ish": str(Fraction(3.14159).limit_denominator(1000)),
}

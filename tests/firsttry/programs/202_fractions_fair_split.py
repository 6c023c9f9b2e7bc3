# description: Split a shared shipping cost fairly between order lines with exact fractions
# value: {"shares": {"LP-14": "1125/268", "KB-01": "2225/268"}, "cents": {"LP-14": 420, "KB-01": 830}, "sum_exact": true, "ratio": [11, 12, "11/12"], "approx_pi": "355/113", "float": 0.125, "from_decimal": "1/8", "pow": "4/9", "cmp": true, "round": ["233/100", 2], "int_ratio": [3, 4]}
from fractions import Fraction
from math import floor

order = await tools.get_order(order_id="o-1010")
shipping = Fraction("12.50")
weights = {l["sku"]: Fraction(str(l["unit_price"])) * l["quantity"] for l in order["lines"]}
total = sum(weights.values())
shares = {sku: shipping * w / total for sku, w in weights.items()}
cents = {sku: floor(s * 100) for sku, s in shares.items()}
leftover = int(shipping * 100) - sum(cents.values())
for sku in sorted(shares, key=lambda s: shares[s] * 100 - cents[s], reverse=True)[:leftover]:
    cents[sku] += 1
ratio = Fraction(3, 4) + Fraction(1, 6)
return {
    "shares": {k: str(v) for k, v in shares.items()},
    "cents": cents,
    "sum_exact": sum(shares.values()) == shipping,
    "ratio": [ratio.numerator, ratio.denominator, str(ratio)],
    "approx_pi": str(Fraction(3.14159265).limit_denominator(1000)),
    "float": float(Fraction(1, 8)),
    "from_decimal": str(Fraction("0.125")),
    "pow": str(Fraction(2, 3) ** 2),
    "cmp": Fraction(1, 3) < 0.34,
    "round": [str(round(Fraction(7, 3), 2)), round(Fraction(5, 2))],
    "int_ratio": (0.75).as_integer_ratio(),
}

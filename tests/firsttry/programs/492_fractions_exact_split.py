# description: Split shipping exactly between order lines with Fraction and show approximations with limit_denominator
# value: {"shares": {"MN-27": "62/15", "HD-10": "124/15"}, "floats": {"MN-27": 4.13, "HD-10": 8.27}, "parts": [[62, 15], [124, 15]], "rate_approx": "17/20", "pi_ish": "355/113", "from_decimal": "1/8", "ratio": [3, 4], "mixed": "10/3", "pow": "4/9", "cmp": true, "floor_div": 3, "round": "233/100"}
from fractions import Fraction
from decimal import Decimal

order = await tools.get_order(order_id="o-1007")
shipping = Fraction("12.40")
total_qty = sum(line["quantity"] for line in order["lines"])
shares = {line["sku"]: shipping * Fraction(line["quantity"], total_qty) for line in order["lines"]}
assert sum(shares.values()) == shipping
rate = Fraction(await tools.get_exchange_rate(base="EUR", quote="GBP"))
return {
    "shares": {k: str(v) for k, v in shares.items()},
    "floats": {k: round(float(v), 2) for k, v in shares.items()},
    "parts": [[v.numerator, v.denominator] for v in shares.values()],
    "rate_approx": str(rate.limit_denominator(100)),
    "pi_ish": str(Fraction(3.14159).limit_denominator(1000)),
    "from_decimal": str(Fraction(Decimal("0.125"))),
    "ratio": list((0.75).as_integer_ratio()),
    "mixed": str(Fraction(7, 3) + 1), "pow": str(Fraction(2, 3) ** 2), "cmp": Fraction(1, 3) < 0.34,
    "floor_div": Fraction(7, 2) // 1, "round": str(round(Fraction(7, 3), 2)),
}

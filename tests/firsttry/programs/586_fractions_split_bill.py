# description: Split an order total exactly between customers with fractions.Fraction
# value: {"total": "268", "parts": ["134.00", "89.33", "44.67"], "exact_sum": true, "limited": "1/3", "ratio": "1/3"}
from fractions import Fraction
from decimal import Decimal

order = await tools.get_order(order_id="o-1010")
total = Fraction(Decimal(str(order["total"])))
shares = [Fraction(1, 2), Fraction(1, 3), Fraction(1, 6)]
assert sum(shares) == 1
parts = [total * s for s in shares]
return {"total": str(total), "parts": [f"{float(p):.2f}" for p in parts], "exact_sum": sum(parts) == total,
        "limited": str(Fraction(0.3333).limit_denominator(10)), "ratio": str(Fraction(3, 9))}

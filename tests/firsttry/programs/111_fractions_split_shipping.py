# description: Split a shipping fee across order lines by value using exact fractions
# value: {"fractions": ["223351/188", "58461/188"], "cents": {"HS-07": 1188, "HD-10": 311}, "sum_ok": true, "ratio": "149/39"}
from fractions import Fraction
import math

order = await tools.get_order(order_id="o-1003")
fee_cents = 1499
weights = [Fraction(round(l["unit_price"] * 100)) * l["quantity"] for l in order["lines"]]
total = sum(weights)
shares = [fee_cents * w / total for w in weights]
floors = [math.floor(s) for s in shares]
left = fee_cents - sum(floors)
order_by_remainder = sorted(range(len(shares)), key=lambda i: shares[i] - floors[i], reverse=True)
for i in order_by_remainder[:left]:
    floors[i] += 1
return {
    "fractions": [f"{s.numerator}/{s.denominator}" for s in shares],
    "cents": dict(zip((l["sku"] for l in order["lines"]), floors)),
    "sum_ok": sum(floors) == fee_cents,
    "ratio": str(Fraction(weights[0], weights[1]).limit_denominator(100)),
}

# description: Split refunds for pending orders across payment methods with exact decimal rounding
# value: {"splits": {"o-1003": ["62.67", "62.67", "62.66"], "o-1005": ["23.50", "23.50", "23.50"], "o-1010": ["89.34", "89.33", "89.33"]}, "half_up": ["0.13", "0.14", "2.50", "3.50", "-1.01"], "half_even": ["0.12", "0.14", "2.50", "3.50", "-1.00"], "builtin_round": ["0.12", "0.14", "2.50", "3.50", "-1.00"], "third": "0.333333", "vat": "56.00", "normalized": "10.5", "divmod": ["14", "2.00"], "as_ratio": [3, 4], "float_ratio": false, "formatted": "1,234,567.89", "compare": true, "sci": "1000"}
# logs: ["o-1003:      188.0 -> 62.67 + 62.67 + 62.66", "o-1005:       70.5 -> 23.50 + 23.50 + 23.50", "o-1010:      268.0 -> 89.34 + 89.33 + 89.33"]
from decimal import Decimal, ROUND_DOWN, ROUND_HALF_EVEN, ROUND_HALF_UP, localcontext

CENT = Decimal("0.01")
orders = []
for cid in ("c1", "c2", "c6"):
    orders.extend(await tools.list_orders(customer_id=cid, status="pending"))


def split(amount: Decimal, weights: list[int]) -> list[Decimal]:
    """Largest-remainder split that always sums back to the amount."""
    total_w = sum(weights)
    raw = [amount * w / total_w for w in weights]
    floored = [r.quantize(CENT, rounding=ROUND_DOWN) for r in raw]
    leftover = int((amount - sum(floored)) / CENT)
    order = sorted(range(len(raw)), key=lambda i: raw[i] - floored[i], reverse=True)
    for i in order[:leftover]:
        floored[i] += CENT
    return floored


report = {}
for o in orders:
    amount = Decimal(str(o["total"]))
    parts = split(amount, [1, 1, 1])
    assert sum(parts) == amount
    report[o["id"]] = [str(p) for p in parts]
    print(f"{o['id']}: {amount:>10} -> {' + '.join(f'{p:.2f}' for p in parts)}")

half = [Decimal(x) for x in ("0.125", "0.135", "2.5", "3.5", "-1.005")]
with localcontext() as ctx:
    ctx.prec = 6
    third = Decimal(1) / Decimal(3)
vat = (Decimal("279.99") * Decimal("0.2")).quantize(CENT, rounding=ROUND_HALF_UP)
q, r = divmod(Decimal("100.00"), Decimal("7"))
return {
    "splits": report,
    "half_up": [str(h.quantize(CENT, rounding=ROUND_HALF_UP)) for h in half],
    "half_even": [str(h.quantize(CENT, rounding=ROUND_HALF_EVEN)) for h in half],
    "builtin_round": [str(round(h, 2)) for h in half],
    "third": str(third),
    "vat": str(vat),
    "normalized": str(Decimal("10.500").normalize()),
    "divmod": [str(q), str(r)],
    "as_ratio": list(Decimal("0.75").as_integer_ratio()),
    "float_ratio": Decimal(0.1) == Decimal("0.1"),
    "formatted": f"{Decimal('1234567.891'):,.2f}",
    "compare": Decimal("1.10") == Decimal("1.1"),
    "sci": str(Decimal("1E+3") + 0),
}

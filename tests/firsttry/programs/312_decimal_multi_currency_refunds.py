# description: Work out refunds for pending orders in each customer's home currency with banker's and half-up rounding
# value: {"refunds": [{"order": "o-1003", "currency": "GBP", "eur": "188.00", "fee": "2.82", "half_up": "157.40", "half_even": "157.40", "exact": "157.403"}, {"order": "o-1005", "currency": "USD", "eur": "70.50", "fee": "1.05", "half_up": "75.01", "half_even": "75.01", "exact": "75.006"}, {"order": "o-1008", "currency": "USD", "eur": "97.50", "fee": "1.46", "half_up": "103.72", "half_even": "103.72", "exact": "103.7232"}, {"order": "o-1010", "currency": "USD", "eur": "268.00", "fee": "4.02", "half_up": "285.10", "half_even": "285.10", "exact": "285.0984"}], "totals": {"GBP": "157.40", "USD": "463.83"}, "third": "0.333333", "differ": [], "tuple": ["sign", "digits", "exponent"]}
# logs: ["o-1003    188.00 EUR  - 2.82  ->    157.40 GBP", "o-1005     70.50 EUR  - 1.05  ->     75.01 USD", "o-1008     97.50 EUR  - 1.46  ->    103.72 USD", "o-1010    268.00 EUR  - 4.02  ->    285.10 USD"]
from decimal import Decimal, ROUND_HALF_UP, ROUND_HALF_EVEN, ROUND_DOWN, localcontext

HOME = {"UK": "GBP", "US": "USD", "NL": "EUR"}
FEE_RATE = Decimal("0.015")

refunds = []
rate_cache: dict[str, Decimal] = {}
for c in await tools.list_customers():
    currency = HOME[c["address"]["country"]]
    if currency not in rate_cache:
        rate_cache[currency] = Decimal(str(await tools.get_exchange_rate(base="EUR", quote=currency)))
    rate = rate_cache[currency]
    for o in await tools.list_orders(customer_id=c["id"], status="pending"):
        eur = Decimal(str(o["total"]))
        fee = (eur * FEE_RATE).quantize(Decimal("0.01"), rounding=ROUND_DOWN)
        local = (eur - fee) * rate
        refunds.append({
            "order": o["id"], "currency": currency,
            "eur": f"{eur:.2f}", "fee": f"{fee:.2f}",
            "half_up": str(local.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)),
            "half_even": str(local.quantize(Decimal("0.01"), rounding=ROUND_HALF_EVEN)),
            "exact": str(local.normalize()),
        })

for r in refunds:
    print(f"{r['order']}  {r['eur']:>8} EUR  -{r['fee']:>5}  -> {r['half_up']:>9} {r['currency']}")

with localcontext() as ctx:
    ctx.prec = 6
    third = Decimal(1) / Decimal(3)
totals = {}
for r in refunds:
    totals[r["currency"]] = totals.get(r["currency"], Decimal(0)) + Decimal(r["half_up"])
return {"refunds": refunds, "totals": {k: f"{v:,.2f}" for k, v in sorted(totals.items())},
        "third": str(third), "differ": [r["order"] for r in refunds if r["half_up"] != r["half_even"]],
        "tuple": list(Decimal("-12.340").as_tuple()._asdict().keys())}

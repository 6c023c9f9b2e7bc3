# description: Invoice table for one order in several currencies
# value: {"rates": {"EUR": 1.0, "USD": 1.08, "GBP": 0.85, "JPY": 169.5, "CHF": 0.96}, "unsupported": "ValueError", "width": 96, "jpy_total": "60,679 JPY"}
# logs: ["Item                   Qty           EUR           USD           GBP           JPY           CHF", "------------------------------------------------------------------------------------------------", "27-inch monitor          1    279.99 EUR    302.39 USD    237.99 GBP    47,458 JPY    268.79 CHF", "USB-C hub                2     78.00 EUR     84.24 USD     66.30 GBP    13,221 JPY     74.88 CHF"]
import asyncio
from decimal import Decimal, ROUND_HALF_UP

order = await tools.get_order(order_id="o-1007")
currencies = ["EUR", "USD", "GBP", "JPY", "CHF"]
rates = dict(zip(currencies, await asyncio.gather(*(tools.get_exchange_rate(base="EUR", quote=c) for c in currencies))))
try:
    await tools.get_exchange_rate(base="EUR", quote="XBT")
except ToolCallError as e:
    unsupported = e.type

def money(amount: Decimal, cur: str) -> str:
    exp = Decimal("1") if cur == "JPY" else Decimal("0.01")
    q = amount.quantize(exp, rounding=ROUND_HALF_UP)
    return f"{q:,} {cur}"

header = f"{'Item':<22}{'Qty':>4}" + "".join(f"{c:>14}" for c in currencies)
lines = [header, "-" * len(header)]
for l in order["lines"]:
    amount = Decimal(str(l["unit_price"])) * l["quantity"]
    lines.append(f"{l['name'][:22]:<22}{l['quantity']:>4}" + "".join(f"{money(amount * Decimal(str(rates[c])), c):>14}" for c in currencies))
for line in lines:
    print(line)
return {"rates": rates, "unsupported": unsupported, "width": len(header), "jpy_total": money(Decimal(str(order["total"])) * Decimal(str(rates["JPY"])), "JPY")}

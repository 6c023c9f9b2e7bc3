# description: Convert order totals to GBP exactly with Decimal, quantize and a local context
# value: {"rows": [["o-1001", "100.51", "100"], ["o-1002", "475.98", "475"], ["o-1003", "159.80", "159"]], "total": "736.29", "third": "0.333333", "neg": "-736.29", "tuple": [1, 5, 0]}
# logs: ["      736.29 28 0.333333"]
import asyncio
from decimal import Decimal, ROUND_HALF_UP, ROUND_DOWN, localcontext, getcontext

rate_f, orders = await asyncio.gather(
    tools.get_exchange_rate(base="EUR", quote="GBP"), tools.list_orders(customer_id="c1")
)
rate = Decimal(str(rate_f))
CENT = Decimal("0.01")
rows = []
for o in orders:
    eur = Decimal(str(o["total"]))
    gbp = (eur * rate).quantize(CENT, rounding=ROUND_HALF_UP)
    rows.append((o["id"], f"{gbp:,.2f}", str(gbp.quantize(Decimal("1"), rounding=ROUND_DOWN))))
total = sum((Decimal(r[1].replace(",", "")) for r in rows), Decimal("0"))
with localcontext() as ctx:
    ctx.prec = 6
    third = Decimal(1) / Decimal(3)
print(f"{total:>12}", getcontext().prec, third)
return {"rows": rows, "total": str(total), "third": str(third), "neg": str(-total.copy_abs()),
        "tuple": list(Decimal("1.50").as_tuple().digits)}

# description: Divide order totals by quantities under a local decimal context trapping division by zero
# value: [["o-1001", 0, "Infinity"], ["o-1002", 2, "279.99"], ["o-1003", 1, "188.0"]]
import decimal
from decimal import Decimal
orders = await tools.list_orders(customer_id="c1")
out = []
for o in orders:
    qty = sum(line["quantity"] for line in o["lines"] if line["unit_price"] > 100)
    with decimal.localcontext() as ctx:
        ctx.prec = 6
        ctx.traps[decimal.DivisionByZero] = False
        ctx.traps[decimal.InvalidOperation] = False
        per = Decimal(str(o["total"])) / Decimal(qty)
    out.append([o["id"], qty, str(per)])
return out

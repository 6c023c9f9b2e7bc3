# description: Check that refunds split evenly using a decimal context that traps inexact results
# value: {"total": "97.5", "splits": {"2": "48.75", "3": "32.5", "4": "24.375", "7": "uneven"}, "third": "32.50"}
import decimal
from decimal import Decimal
ctx = decimal.getcontext()
ctx.traps[decimal.Inexact] = True
order = await tools.get_order(order_id="o-1008")
total = Decimal(str(order["total"]))
splits = {}
for parts in (2, 3, 4, 7):
    try:
        share = total / parts
        splits[str(parts)] = str(share)
    except decimal.Inexact:
        splits[str(parts)] = "uneven"
ctx.traps[decimal.Inexact] = False
return {"total": str(total), "splits": splits, "third": str((total / 3).quantize(Decimal("0.01")))}

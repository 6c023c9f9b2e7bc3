# value: [true, "1/3 inexact", false, "0.33"]
import decimal
ctx = decimal.getcontext()
ctx.traps[decimal.Inexact] = True
try:
    decimal.Decimal(1) / decimal.Decimal(3)
    third = "exact"
except decimal.Inexact:
    third = "1/3 inexact"
ctx.traps[decimal.Inexact] = False
ctx.flags[decimal.Inexact] = False
with decimal.localcontext() as local:
    local.prec = 2
    short = str(decimal.Decimal(1) / decimal.Decimal(3))
return [decimal.Decimal(1) / decimal.Decimal(4) == decimal.Decimal("0.25"), third, ctx.flags[decimal.Inexact], short]

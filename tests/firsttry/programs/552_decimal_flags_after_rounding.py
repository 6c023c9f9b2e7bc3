# description: Detect which converted prices needed rounding using decimal flags
# value: {"rate": "0.85", "rows": [{"sku": "HD-10", "gbp": "33.15", "rounded": false}, {"sku": "CB-05", "gbp": "8.29", "rounded": true}, {"sku": "LP-14", "gbp": "38.25", "rounded": false}]}
import decimal
from decimal import Decimal, ROUND_HALF_UP
rate = Decimal(str(await tools.get_exchange_rate(base="EUR", quote="GBP")))
products = await tools.list_products(category="accessories")
ctx = decimal.getcontext()
rows = []
for p in products:
    ctx.flags[decimal.Inexact] = False
    ctx.flags[decimal.Rounded] = False
    gbp = (Decimal(str(p["price"])) * rate).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    rows.append({"sku": p["sku"], "gbp": str(gbp), "rounded": ctx.flags[decimal.Inexact]})
return {"rate": str(rate), "rows": rows}

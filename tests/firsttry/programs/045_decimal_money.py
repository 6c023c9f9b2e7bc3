# description: Compute exact invoice totals with Decimal
# value: {"net": "70.50", "vat": "14.81", "gross": "85.31", "gross_float": 85.31}
from decimal import Decimal, ROUND_HALF_UP

VAT = Decimal("0.21")

order = await tools.get_order(order_id="o-1005")
net = Decimal("0")
for line in order["lines"]:
    net += Decimal(str(line["unit_price"])) * line["quantity"]

vat = (net * VAT).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
gross = net + vat
return {"net": str(net), "vat": str(vat), "gross": str(gross), "gross_float": float(gross)}

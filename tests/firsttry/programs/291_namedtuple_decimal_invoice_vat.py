# description: Build a VAT invoice for a customer's orders with exact decimal rounding
# value: {"lines": [{"sku": "KB-01", "name": "Mechanical keyboard", "qty": 1, "unit": "89.0", "rate": "0.20"}, {"sku": "CB-05", "name": "Braided cable", "qty": 3, "unit": "9.75", "rate": "0.05"}], "net": "866.23", "vat": "163.01", "gross": "1,029.24", "half_up": ["0.13", "0.14", "2.68", "1.01"], "half_even": ["0.12", "0.14", "2.68", "1.00"]}
# logs: ["Item                      Qty      Unit        Net  VAT%      VAT", "Mechanical keyboard         1     89.00      89.00   20%    17.80", "Braided cable               3      9.75      29.25    5%     1.46", "27-inch monitor             2    279.99     559.98   20%   112.00", "Noise-cancelling headset    1    149.00     149.00   20%    29.80", "USB-C hub                   1     39.00      39.00    5%     1.95", "TOTAL                                       866.23         163.01"]
from decimal import Decimal, ROUND_HALF_UP, ROUND_HALF_EVEN
from typing import NamedTuple

CENT = Decimal("0.01")
VAT = {"peripherals": Decimal("0.20"), "displays": Decimal("0.20"), "accessories": Decimal("0.05"), "audio": Decimal("0.20")}

class Line(NamedTuple):
    sku: str
    name: str
    qty: int
    unit: Decimal
    rate: Decimal

    @property
    def net(self) -> Decimal:
        return (self.unit * self.qty).quantize(CENT, rounding=ROUND_HALF_UP)

    @property
    def vat(self) -> Decimal:
        return (self.net * self.rate).quantize(CENT, rounding=ROUND_HALF_UP)

catalogue = {p["sku"]: p for p in await tools.list_products()}
orders = await tools.list_orders(customer_id="c1")
lines = []
for o in orders:
    for li in o["lines"]:
        cat = catalogue[li["sku"]]["category"]
        lines.append(Line(li["sku"], li["name"], li["quantity"], Decimal(str(li["unit_price"])), VAT[cat]))

w = max(len(l.name) for l in lines)
print(f"{'Item':<{w}}  {'Qty':>3}  {'Unit':>8}  {'Net':>9}  {'VAT%':>4}  {'VAT':>7}")
for l in lines:
    print(f"{l.name:<{w}}  {l.qty:>3}  {l.unit:>8.2f}  {l.net:>9,.2f}  {l.rate:>4.0%}  {l.vat:>7.2f}")
net = sum((l.net for l in lines), Decimal(0))
vat = sum((l.vat for l in lines), Decimal(0))
print(f"{'TOTAL':<{w}}  {'':>3}  {'':>8}  {net:>9,.2f}  {'':>4}  {vat:>7.2f}")
half_cases = [Decimal(s) for s in ("0.125", "0.135", "2.675", "1.005")]
return {
    "lines": [l._replace(unit=str(l.unit), rate=str(l.rate))._asdict() for l in lines[:2]],
    "net": str(net),
    "vat": str(vat),
    "gross": f"{net + vat:,.2f}",
    "half_up": [str(d.quantize(CENT, rounding=ROUND_HALF_UP)) for d in half_cases],
    "half_even": [str(d.quantize(CENT, rounding=ROUND_HALF_EVEN)) for d in half_cases],
}

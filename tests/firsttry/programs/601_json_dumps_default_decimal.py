# description: Build an invoice with Decimal and date fields serialised via json.dumps(default=...)
# value: {"due": "2024-07-13", "lines": [{"amount": "51.00", "qty": 2, "sku": "MS-02"}, {"amount": "19.50", "qty": 2, "sku": "CB-05"}], "order": "o-1005", "vat": "14.81"}
# logs: ["  \"due\": \"2024-07-13\","]
import json
from datetime import date, datetime, timedelta
from decimal import Decimal, ROUND_HALF_UP

order = await tools.get_order(order_id="o-1005")
lines = [
    {"sku": l["sku"], "qty": l["quantity"], "amount": (Decimal(str(l["unit_price"])) * l["quantity"]).quantize(Decimal("0.01"), ROUND_HALF_UP)}
    for l in order["lines"]
]
vat = (sum(l["amount"] for l in lines) * Decimal("0.21")).quantize(Decimal("0.01"), ROUND_HALF_UP)
invoice = {"order": order["id"], "lines": lines, "vat": vat, "due": date.fromisoformat(order["created"]) + timedelta(days=30)}

def encode(obj):
    if isinstance(obj, Decimal):
        return f"{obj:.2f}"
    if isinstance(obj, (date, datetime)):
        return obj.isoformat()
    raise TypeError(f"not serialisable: {type(obj).__name__}")

text = json.dumps(invoice, default=encode, indent=2, sort_keys=True)
print(text.splitlines()[1])
return json.loads(text)

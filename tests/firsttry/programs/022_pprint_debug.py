# description: Inspect a shipped order and summarise it
# value: {"id": "o-1009", "status": "shipped", "pretty_lines": 4, "units": 3}
# logs: ["{'created': '2024-06-08',", " 'currency': 'EUR',", " 'customer_id': 'c6',", " 'id': 'o-1009',", " 'lines': [{'name': 'Noise-cancelling headset',", "            'quantity': 3,", "            'sku': 'HS-07',", "            'unit_price': 149.0}],", " 'status': 'shipped',", " 'total': 447.0}"]
from pprint import pprint, pformat

order = await tools.get_order(order_id="o-1009")
pprint(order)
text = pformat(order["lines"], width=60)

return {
    "id": order["id"],
    "status": order["status"],
    "pretty_lines": len(text.splitlines()),
    "units": sum(l["quantity"] for l in order["lines"]),
}

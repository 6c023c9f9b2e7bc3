# description: Debug-print a nested order with pprint.pp and a depth limit
# value: {"order": "o-1003", "compact_lines": 2}
# logs: ["{'id': 'o-1003',", " 'customer_id': 'c1',", " 'status': 'pending',", " 'created': '2024-06-14',", " 'lines': [...],", " 'total': 188.0,", " 'currency': 'EUR'}"]
from pprint import pp, pformat

order = await tools.get_order(order_id="o-1003")
pp(order, depth=1, width=100)
compact = pformat(order["lines"], compact=True, width=120)
return {"order": order["id"], "compact_lines": compact.count("\n") + 1}

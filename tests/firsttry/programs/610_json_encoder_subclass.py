# description: Serialise a report holding Decimals, dates and sets with a JSONEncoder subclass
# value: {"customer": "c1", "generated": "2024-06-15", "skus": ["CB-05", "HD-10", "HS-07", "KB-01", "MN-27"], "totals": {"o-1001": "118.25", "o-1002": "559.98", "o-1003": "188.0"}}
# logs: ["refused: Object of type objec"]
import json
from datetime import date
from decimal import Decimal

class ReportEncoder(json.JSONEncoder):
    def default(self, o):
        if isinstance(o, Decimal):
            return str(o)
        if isinstance(o, date):
            return o.isoformat()
        if isinstance(o, (set, frozenset)):
            return sorted(o)
        return super().default(o)

orders = await tools.list_orders(customer_id="c1")
report = {
    "customer": "c1",
    "generated": date(2024, 6, 15),
    "totals": {o["id"]: Decimal(str(o["total"])) for o in orders},
    "skus": {l["sku"] for o in orders for l in o["lines"]},
}
text = json.dumps(report, cls=ReportEncoder, sort_keys=True, indent=None)
try:
    json.dumps({"x": object()}, cls=ReportEncoder)
except TypeError as e:
    print("refused:", str(e).split(" is ")[0][:20])
return json.loads(text)

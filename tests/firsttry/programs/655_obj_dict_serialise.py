# description: Build order summaries as plain classes and serialise them through __dict__
# value: [{"id": "o-1001", "items": 4, "status": "delivered", "total": 118.25}, {"id": "o-1002", "items": 2, "status": "shipped", "total": 559.98}, {"id": "o-1003", "items": 2, "status": "pending", "total": 188.0}]
# logs: ["[{\"id\": \"o-1001\", \"items\": 4, \"status\": \"delivered\", \"total\": 118.25}, {\"id\": \"o-1002\", \"items\": 2, \"status\": \"shipped\", \"total\": 559.98}, {\"id\": \"o-1003\", \"items\": 2, \"status\": \"pending\", \"total\": 188.0}]"]
# limitation: reading an object's __dict__ is refused as a dunder read; the refusal names vars(obj)
import json

class OrderSummary:
    def __init__(self, order):
        self.id = order["id"]
        self.status = order["status"]
        self.items = sum(line["quantity"] for line in order["lines"])
        self.total = order["total"]

orders = await tools.list_orders(customer_id="c1")
summaries = [OrderSummary(o) for o in orders]
payload = json.dumps([s.__dict__ for s in summaries], sort_keys=True)
print(payload)
return json.loads(payload)

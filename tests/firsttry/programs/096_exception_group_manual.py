# description: Validate a batch and report every problem at once with ExceptionGroup
# value: {"caught": {"validation": ["o-1006"], "value": ["o-1005: qty 2 of MS-02", "o-1005: qty 2 of CB-05"]}, "summary": {"message": "batch invalid", "n": 3, "matched": 1, "rest": 2}}
orders = await tools.list_orders(customer_id="c2") + await tools.list_orders(customer_id="c3")

class ValidationError(Exception):
    def __init__(self, order_id, problem):
        super().__init__(f"{order_id}: {problem}")
        self.order_id = order_id

def validate(orders):
    problems = []
    for o in orders:
        if o["status"] == "cancelled":
            problems.append(ValidationError(o["id"], "cancelled"))
        for l in o["lines"]:
            if l["quantity"] > 1:
                problems.append(ValueError(f"{o['id']}: qty {l['quantity']} of {l['sku']}"))
    if problems:
        raise ExceptionGroup("batch invalid", problems)

caught = {"validation": [], "value": []}
try:
    validate(orders)
except* ValidationError as eg:
    caught["validation"] = [e.order_id for e in eg.exceptions]
except* ValueError as eg:
    caught["value"] = [str(e) for e in eg.exceptions]

try:
    validate(orders)
except ExceptionGroup as eg:
    match_, rest = eg.split(ValidationError)
    summary = {"message": eg.message, "n": len(eg.exceptions), "matched": len(match_.exceptions), "rest": len(rest.exceptions)}
return {"caught": caught, "summary": summary}

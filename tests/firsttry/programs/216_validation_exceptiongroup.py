# description: Validate ticket requests, collect all problems in an ExceptionGroup and handle them by kind
# value: {"created": ["T-101", "T-102"], "field_errors": [[2, "subject"], [2, "priority"], [4, "subject"]], "lookup_errors": [[2, "unknown customer 'c9'"]], "summary": ["request 2 invalid", 3, "LookupError(\"unknown customer 'c9'\")"]}
class FieldError(ValueError):
    def __init__(self, field, message):
        super().__init__(f"{field}: {message}")
        self.field = field


def validate(req, known_ids):
    problems = []
    if req.get("customer_id") not in known_ids:
        problems.append(LookupError(f"unknown customer {req.get('customer_id')!r}"))
    if len(req.get("subject", "")) < 5:
        problems.append(FieldError("subject", "too short"))
    if req.get("priority", "normal") not in ("low", "normal", "high"):
        problems.append(FieldError("priority", f"bad value {req['priority']!r}"))
    if problems:
        raise ExceptionGroup(f"request {req.get('ref')} invalid", problems)


known = {c["id"] for c in await tools.list_customers()}
requests = [
    {"ref": 1, "customer_id": "c1", "subject": "Broken keyboard", "priority": "high"},
    {"ref": 2, "customer_id": "c9", "subject": "Hi", "priority": "urgent"},
    {"ref": 3, "customer_id": "c5", "subject": "Where is my order?"},
    {"ref": 4, "customer_id": "c2", "subject": "Bad", "priority": "low"},
]
created, field_errors, lookup_errors = [], [], []
for req in requests:
    try:
        validate(req, known)
    except* FieldError as g:
        field_errors.extend((req["ref"], e.field) for e in g.exceptions)
    except* LookupError as g:
        lookup_errors.extend((req["ref"], str(e)) for e in g.exceptions)
    else:
        t = await tools.create_ticket(customer_id=req["customer_id"], subject=req["subject"], priority=req.get("priority", "normal"))
        created.append(t["id"])

try:
    validate(requests[1], known)
except ExceptionGroup as eg:
    summary = [eg.message, len(eg.exceptions), repr(eg.exceptions[0])]
return {"created": created, "field_errors": field_errors, "lookup_errors": lookup_errors, "summary": summary}

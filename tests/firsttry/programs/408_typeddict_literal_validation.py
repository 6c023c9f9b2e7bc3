# description: Validate ticket requests typed with TypedDict, Literal, NotRequired and Final before creating tickets
# limitation: reading a class's __annotations__ is refused as a dunder read
# value: {"results": [{"ok": true, "ticket": "T-101"}, {"ok": false, "errors": ["subject is required"]}, {"ok": false, "errors": ["priority must be one of low, normal, high"]}, {"ok": true, "ticket": "T-102"}, {"ok": false, "errors": ["create_ticket: LookupError"]}], "fields": ["customer_id", "subject", "priority", "tags"], "opt": true}
from typing import TypedDict, Literal, NotRequired, Required, Final, get_args, Union, Optional, Any, cast

Priority = Literal["low", "normal", "high"]
PRIORITIES: Final = ("low", "normal", "high")


class TicketRequest(TypedDict, total=False):
    customer_id: Required[str]
    subject: Required[str]
    priority: Priority
    tags: list[str]


class Result(TypedDict):
    ok: bool
    ticket: NotRequired[str]
    errors: NotRequired[list[str]]


def validate(req: dict[str, Any]) -> list[str]:
    errors: list[str] = []
    for key in ("customer_id", "subject"):
        if not isinstance(req.get(key), str) or not req[key].strip():
            errors.append(f"{key} is required")
    if "priority" in req and req["priority"] not in PRIORITIES:
        errors.append(f"priority must be one of {', '.join(PRIORITIES)}")
    return errors


requests: list[TicketRequest] = [
    {"customer_id": "c1", "subject": "Monitor flickers", "priority": "high"},
    {"customer_id": "c3", "subject": "  ", "priority": "normal"},
    cast(TicketRequest, {"customer_id": "c4", "subject": "Invoice copy", "priority": "urgent"}),
    {"customer_id": "c5", "subject": "Password reset"},
    {"customer_id": "c99", "subject": "Who am I"},
]
results: list[Result] = []
for req in requests:
    errs = validate(req)
    if errs:
        results.append({"ok": False, "errors": errs})
        continue
    try:
        t = await tools.create_ticket(customer_id=req["customer_id"], subject=req["subject"].strip(),
                                      priority=req.get("priority", "normal"))
        results.append(Result(ok=True, ticket=t["id"]))
    except ToolCallError as e:
        results.append({"ok": False, "errors": [f"{e.tool_name}: {e.type}"]})

annotations = list(TicketRequest.__annotations__)
return {"results": results, "fields": annotations, "opt": Optional[int] == Union[int, None]}

# description: Build typed payloads with TypedDict, TypeGuard and assert_never
# value: {"sent": ["email:alan@example.com", "push:c3", "email:edsger@example.com", "push:c5"], "guard": [true, false], "payload_type": "dict"}
from typing import Literal, NotRequired, TypedDict, TypeGuard, assert_never, cast

class Payload(TypedDict):
    to: str
    message: str
    channel: NotRequired[Literal["email", "sms", "push"]]

Kind = Literal["email", "push"]

def is_email(value: object) -> TypeGuard[str]:
    return isinstance(value, str) and "@" in value

def payload_for(customer: dict, kind: Kind) -> Payload:
    if kind == "email":
        p: Payload = {"to": customer["email"], "message": "Welcome back"}
    elif kind == "push":
        p = Payload(to=customer["id"], message="Welcome back", channel="push")
    else:
        assert_never(kind)
    return p

sent = []
for c in await tools.list_customers(tier="free"):
    for kind in cast(list[Kind], ["email", "push"]):
        p = payload_for(c, kind)
        if kind == "email" and not is_email(p["to"]):
            continue
        r = await tools.send_notification(**p)
        sent.append(f"{r['channel']}:{r['to']}")
return {"sent": sent, "guard": [is_email("a@b"), is_email(3)], "payload_type": type(Payload(to="x", message="y")).__name__}

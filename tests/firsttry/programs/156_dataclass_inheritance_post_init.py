# description: Notification drafts as a dataclass hierarchy with __post_init__
# value: {"receipts": [["ntf-1", "email", ["long"]], ["ntf-2", "sms", ["truncated"]]], "sms_body": "Order o-1008 is pending and will ship s\u2026", "repr": "SmsDraft(to='+15550100', body='Order o-1", "isinstance": true}
from dataclasses import dataclass, field

@dataclass
class Draft:
    to: str
    body: str
    channel: str = "email"
    warnings: list[str] = field(default_factory=list)

    def __post_init__(self):
        self.body = " ".join(self.body.split())
        if len(self.body) > 60:
            self.warnings.append("long")

@dataclass
class SmsDraft(Draft):
    channel: str = "sms"
    max_len: int = 40

    def __post_init__(self):
        super().__post_init__()
        if len(self.body) > self.max_len:
            self.body = self.body[: self.max_len - 1] + "…"
            self.warnings.append("truncated")

c = await tools.get_customer(customer_id="c4")
drafts = [
    Draft(c["email"], f"Hi {c['name']},   your order   o-1008 is   pending and will ship soon. Thanks for shopping with us!"),
    SmsDraft("+15550100", "Order o-1008 is pending and will ship soon, thank you"),
]
receipts = []
for d in drafts:
    r = await tools.send_notification(to=d.to, message=d.body, channel=d.channel)
    receipts.append((r["id"], r["channel"], d.warnings))
return {"receipts": receipts, "sms_body": drafts[1].body, "repr": repr(drafts[1])[:40], "isinstance": isinstance(drafts[1], Draft)}

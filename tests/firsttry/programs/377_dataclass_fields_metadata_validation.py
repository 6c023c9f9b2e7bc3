# description: Validate ticket requests built from customer data using dataclass fields, metadata and InitVar
# value: {"valid": ["c2", "c3", "c4", "c5"], "invalid": {"c1": ["priority must be one of low, normal, high", "tags has more than 2 items"], "c6": ["priority must be one of low, normal, high"], "x1": ["customer_id must start with 'c'", "subject is required"]}, "created": ["T-101", "T-102", "T-103", "T-104"], "repr": "TicketRequest(customer_id='c2', subject='Account review for Grace Hopper', priority='normal', tags=['beta', 'review'])", "asdict": {"customer_id": "c2", "subject": "Account review for Grace Hopper", "priority": "normal", "tags": ["beta", "review"], "internal_note": ""}, "astuple": ["c2", "Account review for Grace Hopper", "normal", ["beta", "review"], ""], "field_names": ["customer_id", "subject", "priority", "tags", "internal_note"], "metadata": {"choices": ["low", "normal", "high"]}, "eq_ignores_note": true, "replace_shout": "QUIET"}
# logs: ["TicketRequest(customer_id='c2', subject='Account review for Grace Hopper', priority='normal', tags=['beta', 'review'])"]
from dataclasses import InitVar, asdict, astuple, dataclass, field, fields, replace


class ValidationError(ValueError):
    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


@dataclass
class TicketRequest:
    customer_id: str = field(metadata={"pattern": "c", "required": True})
    subject: str = field(metadata={"max_len": 40, "required": True})
    priority: str = field(default="normal", metadata={"choices": ("low", "normal", "high")})
    tags: list[str] = field(default_factory=list, metadata={"max_items": 2})
    internal_note: str = field(default="", repr=False, compare=False)
    shout: InitVar[bool] = False

    def __post_init__(self, shout: bool) -> None:
        if shout:
            self.subject = self.subject.upper()
        problems = []
        for f in fields(self):
            value = getattr(self, f.name)
            meta = f.metadata
            if meta.get("required") and not value:
                problems.append(f"{f.name} is required")
            if "pattern" in meta and not str(value).startswith(meta["pattern"]):
                problems.append(f"{f.name} must start with {meta['pattern']!r}")
            if "max_len" in meta and len(value) > meta["max_len"]:
                problems.append(f"{f.name} longer than {meta['max_len']}")
            if "choices" in meta and value not in meta["choices"]:
                problems.append(f"{f.name} must be one of {', '.join(meta['choices'])}")
            if "max_items" in meta and len(value) > meta["max_items"]:
                problems.append(f"{f.name} has more than {meta['max_items']} items")
        if problems:
            raise ValidationError(problems)


drafts = []
for c in await tools.list_customers():
    drafts.append(dict(customer_id=c["id"], subject=f"Account review for {c['name']}",
                       priority="urgent" if c["tier"] == "enterprise" else "normal",
                       tags=c["tags"] + ["review"], shout=c["tier"] == "free"))
drafts.append(dict(customer_id="x1", subject=""))

valid, invalid = [], {}
for d in drafts:
    try:
        valid.append(TicketRequest(**d))
    except ValidationError as e:
        invalid[d["customer_id"]] = e.problems

created = []
for req in valid:
    t = await tools.create_ticket(customer_id=req.customer_id, subject=req.subject, priority=req.priority)
    created.append(t["id"])

sample = valid[0]
print(sample)
return {
    "valid": [v.customer_id for v in valid],
    "invalid": invalid,
    "created": created,
    "repr": repr(sample),
    "asdict": asdict(sample),
    "astuple": list(astuple(sample)),
    "field_names": [f.name for f in fields(TicketRequest)],
    "metadata": dict(fields(TicketRequest)[2].metadata),
    "eq_ignores_note": replace(sample, internal_note="x") == sample,
    "replace_shout": replace(sample, subject="quiet", shout=True).subject,
}

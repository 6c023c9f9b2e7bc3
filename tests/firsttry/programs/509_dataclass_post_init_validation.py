# description: Validate refund requests in dataclass __post_init__ and collect the errors before cancelling orders
# value: {"results": [{"ref": "R-1003", "reason": "Duplicate order", "amount": 188.0, "notes": ["refunded"]}, {"ref": "R-1010", "reason": "Wrong size", "amount": 268.0, "notes": ["refunded"]}, {"ref": "R-1001", "reason": "Broken", "amount": 0.0, "notes": ["ValueError"]}], "errors": ["bad order id '1005'", "o-1008: reason is empty"], "shared_default": false}
from dataclasses import dataclass, field

class RefundError(ValueError):
    pass

@dataclass
class RefundRequest:
    order_id: str
    reason: str
    amount: float = 0.0
    notes: list = field(default_factory=list)
    ref: str = field(init=False)

    def __post_init__(self):
        if not self.order_id.startswith("o-"):
            raise RefundError(f"bad order id {self.order_id!r}")
        if not self.reason.strip():
            raise RefundError(f"{self.order_id}: reason is empty")
        self.reason = self.reason.strip().capitalize()
        self.ref = f"R-{self.order_id[2:]}"

raw = [("o-1003", " duplicate order "), ("1005", "late"), ("o-1008", "   "), ("o-1010", "wrong size"), ("o-1001", "broken")]
valid, errors = [], []
for order_id, reason in raw:
    try:
        valid.append(RefundRequest(order_id, reason))
    except RefundError as exc:
        errors.append(str(exc))
results = []
for req in valid:
    try:
        done = await tools.cancel_order(order_id=req.order_id, reason=req.reason)
        req.amount = done["refund"]
        req.notes.append("refunded")
    except ToolCallError as exc:
        req.notes.append(exc.type or "error")
    results.append({"ref": req.ref, "reason": req.reason, "amount": req.amount, "notes": req.notes})
return {"results": results, "errors": errors, "shared_default": valid[0].notes is valid[1].notes}

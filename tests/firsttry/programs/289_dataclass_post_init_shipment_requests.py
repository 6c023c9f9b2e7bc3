# description: Validate a batch of shipment requests with dataclasses before creating tickets for the valid ones
# value: {"tickets": [{"ticket": "T-101", "customer_id": "c6", "sku": "HS-07", "quantity": 3, "ship_by": "2024-06-17", "notes": ["gift"]}, {"ticket": "T-102", "customer_id": "c1", "sku": "KB-01", "quantity": 2, "ship_by": "2024-06-20", "notes": []}], "rejected": [{"row": 1, "error": "InvalidRequest", "message": "quantity must be positive, got 0"}, {"row": 2, "error": "InvalidRequest", "message": "bad customer id 'x7'"}, {"row": 3, "error": "InvalidRequest", "message": "quantity must be an int, got bool"}, {"row": 5, "error": "ValueError", "message": "month must be in 1..12"}]}
from dataclasses import dataclass, field, asdict
from datetime import date

class InvalidRequest(ValueError):
    pass

@dataclass
class ShipmentRequest:
    customer_id: str
    sku: str
    quantity: int
    ship_by: date
    notes: list[str] = field(default_factory=list)

    def __post_init__(self):
        if isinstance(self.ship_by, str):
            self.ship_by = date.fromisoformat(self.ship_by)
        if not isinstance(self.quantity, int) or isinstance(self.quantity, bool):
            raise InvalidRequest(f"quantity must be an int, got {type(self.quantity).__name__}")
        if self.quantity <= 0:
            raise InvalidRequest(f"quantity must be positive, got {self.quantity}")
        if not self.customer_id.startswith("c"):
            raise InvalidRequest(f"bad customer id {self.customer_id!r}")
        self.sku = self.sku.strip().upper()

raw = [
    {"customer_id": "c1", "sku": " kb-01", "quantity": 2, "ship_by": "2024-06-20"},
    {"customer_id": "c2", "sku": "MN-27", "quantity": 0, "ship_by": "2024-06-18"},
    {"customer_id": "x7", "sku": "HD-10", "quantity": 1, "ship_by": "2024-06-19"},
    {"customer_id": "c4", "sku": "cb-05", "quantity": True, "ship_by": "2024-06-21"},
    {"customer_id": "c6", "sku": "hs-07", "quantity": 3, "ship_by": "2024-06-17", "notes": ["gift"]},
    {"customer_id": "c3", "sku": "LP-14", "quantity": 1, "ship_by": "2024-13-01"},
]

valid, rejected = [], []
for i, item in enumerate(raw):
    try:
        valid.append(ShipmentRequest(**item))
    except (InvalidRequest, ValueError, TypeError) as e:
        rejected.append({"row": i, "error": type(e).__name__, "message": str(e)})

today = date.fromisoformat((await tools.current_time())[:10])
tickets = []
for req in sorted(valid, key=lambda r: r.ship_by):
    days_left = (req.ship_by - today).days
    priority = "high" if days_left <= 3 else "normal"
    t = await tools.create_ticket(customer_id=req.customer_id,
                                  subject=f"Ship {req.quantity}x {req.sku} by {req.ship_by:%d %b}",
                                  priority=priority)
    tickets.append({"ticket": t["id"], **{k: str(v) if isinstance(v, date) else v for k, v in asdict(req).items()}})

return {"tickets": tickets, "rejected": rejected}

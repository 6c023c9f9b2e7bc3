# description: Convert sets, dates, Decimals, a dataclass, an enum and bytes to JSON-friendly values before returning the report
# value: {"summary": {"customer_id": "c1", "tier": "enterprise", "since": "2021-03-14", "spent": "866.23", "skus": ["CB-05", "HD-10", "HS-07", "KB-01", "MN-27"]}, "at": "2024-06-15T09:30:00+00:00", "token": "YzE6MjAyNA==", "spent_float": 866.23}
import base64
import dataclasses
from datetime import date, datetime, timezone
from decimal import Decimal
from enum import Enum

class Tier(Enum):
    FREE = "free"
    PRO = "pro"
    ENTERPRISE = "enterprise"

@dataclasses.dataclass
class Summary:
    customer_id: str
    tier: Tier
    since: date
    spent: Decimal
    skus: set

customer = await tools.get_customer(customer_id="c1")
orders = await tools.list_orders(customer_id="c1")
summary = Summary(customer["id"], Tier(customer["tier"]), date.fromisoformat(customer["signup_date"]),
                  sum((Decimal(str(o["total"])) for o in orders), Decimal("0")),
                  {line["sku"] for o in orders for line in o["lines"]})

def to_json(value):
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, (date, datetime)):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    if isinstance(value, bytes):
        return base64.b64encode(value).decode()
    if dataclasses.is_dataclass(value):
        return {f.name: to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    return value

now = datetime.fromisoformat(await tools.current_time()).astimezone(timezone.utc)
return {"summary": to_json(summary), "at": to_json(now), "token": to_json(b"c1:2024"),
        "spent_float": float(summary.spent)}

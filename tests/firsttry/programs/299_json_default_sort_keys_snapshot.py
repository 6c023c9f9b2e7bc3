# description: Snapshot a customer's account to JSON with custom encoding and check it round-trips
# value: {"equal": true, "length": 218, "head": "{\"__snapshot__\":true,\"balance\":{\"__dec__\":\"455.49\"},\"custome", "balance": "455.49", "tier": "PRO", "err": "cannot encode object", "asdict_keys": ["balance", "customer_id", "since", "tags", "taken", "tier"]}
# logs: ["  \"__snapshot__\": true,"]
# limitation: `o.__dataclass_fields__` is a refused dunder attribute (use dataclasses.fields(o))
import json
from dataclasses import dataclass, asdict, is_dataclass
from datetime import date, datetime
from decimal import Decimal
from enum import Enum

class Tier(Enum):
    FREE = "free"
    PRO = "pro"
    ENTERPRISE = "enterprise"

@dataclass
class Snapshot:
    customer_id: str
    tier: Tier
    taken: datetime
    since: date
    balance: Decimal
    tags: set

def encode(o):
    if isinstance(o, Enum):
        return {"__enum__": type(o).__name__, "value": o.value}
    if isinstance(o, datetime):
        return {"__dt__": o.isoformat()}
    if isinstance(o, date):
        return {"__date__": o.isoformat()}
    if isinstance(o, Decimal):
        return {"__dec__": str(o)}
    if isinstance(o, (set, frozenset)):
        return sorted(o)
    if is_dataclass(o):
        return {"__snapshot__": True, **{k: getattr(o, k) for k in o.__dataclass_fields__}}
    raise TypeError(f"cannot encode {type(o).__name__}")

def decode(d):
    if "__enum__" in d:
        return Tier(d["value"])
    if "__dt__" in d:
        return datetime.fromisoformat(d["__dt__"])
    if "__date__" in d:
        return date.fromisoformat(d["__date__"])
    if "__dec__" in d:
        return Decimal(d["__dec__"])
    if d.pop("__snapshot__", False):
        d["tags"] = set(d["tags"])
        return Snapshot(**d)
    return d

c = await tools.get_customer(customer_id="c4")
orders = await tools.list_orders(customer_id="c4")
snap = Snapshot(c["id"], Tier(c["tier"]), datetime.fromisoformat(await tools.current_time()),
                date.fromisoformat(c["signup_date"]), sum((Decimal(str(o["total"])) for o in orders), Decimal("0")),
                set(c["tags"]) | {"audited"})
text = json.dumps(snap, default=encode, sort_keys=True, separators=(",", ":"))
back = json.loads(text, object_hook=decode)
pretty = json.dumps(json.loads(text), indent=2, sort_keys=True)
try:
    json.dumps({"when": object()}, default=encode)
    err = None
except TypeError as e:
    err = str(e)
print(pretty.splitlines()[1])
return {"equal": back == snap, "length": len(text), "head": text[:60], "balance": str(back.balance),
        "tier": back.tier.name, "err": err, "asdict_keys": sorted(asdict(snap))}

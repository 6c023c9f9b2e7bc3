# description: Serialise an order snapshot with json default= and read it back with object_hook into dataclasses
# value: {"length": 528, "same": true, "statuses": ["SHIPPED", "PENDING", "DELIVERED"], "total": "1105.97", "err": "cannot serialise object", "pairs": [["b", 1], ["a", 2], ["b", 3]], "p": "1.10"}
import json
from dataclasses import dataclass, asdict, is_dataclass
from datetime import date, datetime
from decimal import Decimal
from enum import Enum


class Status(Enum):
    PENDING = "pending"
    SHIPPED = "shipped"
    DELIVERED = "delivered"
    CANCELLED = "cancelled"


@dataclass
class Snapshot:
    order_id: str
    created: date
    status: Status
    total: Decimal
    skus: frozenset


def encode(o):
    if is_dataclass(o):
        return {"__type__": type(o).__name__, **asdict(o)}
    if isinstance(o, (date, datetime)):
        return {"__date__": o.isoformat()}
    if isinstance(o, Decimal):
        return {"__decimal__": str(o)}
    if isinstance(o, Enum):
        return {"__enum__": o.value}
    if isinstance(o, (set, frozenset)):
        return sorted(o)
    raise TypeError(f"cannot serialise {type(o).__name__}")


def hook(d: dict):
    if "__date__" in d:
        return date.fromisoformat(d["__date__"])
    if "__decimal__" in d:
        return Decimal(d["__decimal__"])
    if "__enum__" in d:
        return Status(d["__enum__"])
    if d.get("__type__") == "Snapshot":
        d.pop("__type__")
        d["skus"] = frozenset(d["skus"])
        return Snapshot(**d)
    return d


snaps = []
for oid in ("o-1002", "o-1003", "o-1007"):
    o = await tools.get_order(order_id=oid)
    snaps.append(Snapshot(o["id"], date.fromisoformat(o["created"]), Status(o["status"]),
                          Decimal(str(o["total"])), frozenset(l["sku"] for l in o["lines"])))

text = json.dumps({"snapshots": snaps, "count": len(snaps)}, default=encode, sort_keys=True, indent=None, separators=(",", ":"))
back = json.loads(text, object_hook=hook)
same = back["snapshots"] == snaps
try:
    json.dumps({"x": object()}, default=encode)
    err = None
except TypeError as e:
    err = str(e)

pairs = json.loads('{"b": 1, "a": 2, "b": 3}', object_pairs_hook=lambda kv: kv)
floats = json.loads('{"p": 1.10}', parse_float=Decimal)
return {
    "length": len(text),
    "same": same,
    "statuses": [s.status.name for s in back["snapshots"]],
    "total": str(sum(s.total for s in back["snapshots"])),
    "err": err,
    "pairs": pairs,
    "p": str(floats["p"]),
}

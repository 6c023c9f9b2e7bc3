# description: Serialise a rich order snapshot with json default= and a JSONEncoder subclass, then rebuild it with object_hook
# value: {"text_len": 245, "first_keys": ["created", "order_id", "skus", "total"], "total": "917.97", "created_type": "date", "weekday": "Sunday", "encoded": "{\"p\": 1.5, \"d\": \"15/06/2024\"}", "err": "Object of type object is not JSON serializable", "compact": "{\"a\":[1,2],\"b\":null}"}
import json
from datetime import date, datetime, timezone
from decimal import Decimal
from dataclasses import dataclass, asdict, is_dataclass


@dataclass
class Snapshot:
    order_id: str
    total: Decimal
    created: date
    skus: frozenset


def default(o):
    if isinstance(o, Decimal):
        return {"__decimal__": str(o)}
    if isinstance(o, (date, datetime)):
        return {"__date__": o.isoformat()}
    if isinstance(o, (set, frozenset)):
        return sorted(o)
    if is_dataclass(o):
        return asdict(o)
    raise TypeError(f"Object of type {type(o).__name__} is not JSON serializable")


def hook(d):
    if "__decimal__" in d:
        return Decimal(d["__decimal__"])
    if "__date__" in d:
        return date.fromisoformat(d["__date__"])
    return d


class Encoder(json.JSONEncoder):
    def default(self, o):
        if isinstance(o, Decimal):
            return float(o)
        if isinstance(o, date):
            return o.strftime("%d/%m/%Y")
        return super().default(o)


orders = [await tools.get_order(order_id=i) for i in ("o-1002", "o-1007")]
snaps = [Snapshot(o["id"], Decimal(str(o["total"])), date.fromisoformat(o["created"]), frozenset(l["sku"] for l in o["lines"])) for o in orders]
text = json.dumps(snaps, default=default, sort_keys=True)
back = json.loads(text, object_hook=hook)
total = sum(s["total"] for s in back)
try:
    json.dumps({"when": datetime(2024, 1, 1, tzinfo=timezone.utc), "x": object()}, cls=Encoder)
    err = None
except TypeError as e:
    err = str(e)
return {
    "text_len": len(text),
    "first_keys": list(back[0]),
    "total": str(total),
    "created_type": type(back[1]["created"]).__name__,
    "weekday": back[1]["created"].strftime("%A"),
    "encoded": json.dumps({"p": Decimal("1.50"), "d": date(2024, 6, 15)}, cls=Encoder),
    "err": err,
    "compact": json.dumps({"a": [1, 2], "b": None}, separators=(",", ":")),
}

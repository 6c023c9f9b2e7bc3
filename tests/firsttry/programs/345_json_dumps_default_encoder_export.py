# description: Export a customer snapshot as JSON with a custom default, an encoder subclass and decimal parsing
# value: {"pretty_lines": 21, "pretty_head": ["[", "  {", "    \"id\": \"c1\",", "    \"since\": \"2021-03-14\",", "    \"spend\": \"866.23\",", "    \"tags\": ["], "compact": "{\"id\":\"c1\",\"tier\":\"enterprise\",\"since\":\"2021-03-14\",\"spend\":\"866.23\",\"tags\":[\"beta\",\"vip\"],\"kind\":\"snapshot\"}", "unicode": "{\"name\": \"Zo\u00eb\", \"city\": \"Malm\u00f6\"}", "escaped": "{\"name\": \"Zo\\u00eb\"}", "spend_type": "str", "ordered": ["b", "a"], "hooked": "datetime.date(2021, 3, 14)", "err": "Object of type set is not JSON serializable", "nan": "NaN", "tuple_key_skip": "{}", "int_keys": "{\"1\": \"c\", \"2.5\": \"b\", \"null\": \"d\"}"}
# logs: ["['[', '  {', '    \"id\": \"c1\",', '    \"since\": \"2021-03-14\",']"]
import json
from dataclasses import asdict, dataclass, field
from datetime import date, datetime
from decimal import Decimal
from enum import Enum


class Tier(Enum):
    FREE = "free"
    PRO = "pro"
    ENTERPRISE = "enterprise"


@dataclass
class Snapshot:
    id: str
    tier: Tier
    since: date
    spend: Decimal
    tags: set = field(default_factory=set)


def default(o):
    if isinstance(o, (date, datetime)):
        return o.isoformat()
    if isinstance(o, Decimal):
        return str(o)
    if isinstance(o, set):
        return sorted(o)
    if isinstance(o, Enum):
        return o.value
    raise TypeError(f"Object of type {type(o).__name__} is not JSON serializable")


class SnapshotEncoder(json.JSONEncoder):
    def default(self, o):
        if isinstance(o, Snapshot):
            d = asdict(o)
            d["kind"] = "snapshot"
            return d
        return default(o)


snaps = []
for c in await tools.list_customers():
    orders = await tools.list_orders(customer_id=c["id"])
    spend = sum((Decimal(str(o["total"])) for o in orders), Decimal("0"))
    snaps.append(Snapshot(c["id"], Tier(c["tier"]), date.fromisoformat(c["signup_date"]), spend, set(c["tags"])))

pretty = json.dumps([asdict(s) for s in snaps[:2]], default=default, indent=2, sort_keys=True)
compact = json.dumps(snaps[0], cls=SnapshotEncoder, separators=(",", ":"))
unicode = json.dumps({"name": "Zoë", "city": "Malmö"}, ensure_ascii=False)
escaped = json.dumps({"name": "Zoë"})
back = json.loads(compact, parse_float=Decimal)
ordered = json.loads('{"b": 1, "a": 2}', object_pairs_hook=lambda pairs: [k for k, _ in pairs])
hooked = json.loads('{"since": "2021-03-14"}', object_hook=lambda d: {k: date.fromisoformat(v) for k, v in d.items()})
try:
    json.dumps({"x": {1, 2}})
    err = None
except TypeError as e:
    err = str(e)
print(pretty.splitlines()[0:4])
return {
    "pretty_lines": len(pretty.splitlines()),
    "pretty_head": pretty.splitlines()[:6],
    "compact": compact,
    "unicode": unicode,
    "escaped": escaped,
    "spend_type": type(back["spend"]).__name__,
    "ordered": ordered,
    "hooked": repr(hooked["since"]),
    "err": err,
    "nan": json.dumps(float("nan")),
    "tuple_key_skip": json.dumps({(1, 2): 3}, skipkeys=True),
    "int_keys": json.dumps({1: "a", 2.5: "b", True: "c", None: "d"}),
}

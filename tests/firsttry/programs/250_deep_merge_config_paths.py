# description: Deep-merge notification settings layers and list what each layer changed by dotted path
# value: {"c1": {"limits.per_day": 50, "notify.channel": "push", "notify.digest": true, "notify.quiet_hours.start": 23}, "changes": {"c1": ["limits.per_day", "notify.channel", "notify.digest", "notify.quiet_hours.start"], "c2": ["limits.burst", "limits.per_day", "templates"], "c3": [], "c4": ["limits.burst", "limits.per_day", "notify.quiet_hours.start", "templates"], "c5": [], "c6": ["limits.per_day", "notify.channel", "notify.digest", "notify.quiet_hours.start"]}, "channels": {"c1": "push", "c2": "email", "c3": "email", "c4": "email", "c5": "email", "c6": "push"}}
import copy
import operator
from functools import reduce
from typing import Any, Iterator

defaults = {
    "notify": {"channel": "email", "quiet_hours": {"start": 22, "end": 7}, "digest": False},
    "limits": {"per_day": 5, "burst": 2},
    "templates": ["order", "refund"],
}
tier_overrides = {
    "enterprise": {"notify": {"channel": "push", "digest": True}, "limits": {"per_day": 50}},
    "pro": {"limits": {"per_day": 20, "burst": 4}, "templates": ["order", "refund", "tips"]},
    "free": {},
}

def deep_merge(base: dict, override: dict) -> dict:
    out = copy.deepcopy(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = deep_merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out

def leaves(d: dict, prefix: str = "") -> Iterator[tuple[str, Any]]:
    for key, value in d.items():
        path = f"{prefix}.{key}" if prefix else key
        if isinstance(value, dict):
            yield from leaves(value, path)
        else:
            yield path, value

def get_path(d: dict, path: str) -> Any:
    return reduce(operator.getitem, path.split("."), d)

def set_path(d: dict, path: str, value: Any) -> None:
    *parents, last = path.split(".")
    reduce(lambda acc, k: acc.setdefault(k, {}), parents, d)[last] = value

customers = await tools.list_customers()
settings = {}
changes = {}
for c in customers:
    merged = deep_merge(defaults, tier_overrides[c["tier"]])
    if "vip" in c["tags"]:
        set_path(merged, "notify.quiet_hours.start", 23)
    settings[c["id"]] = merged
    base = dict(leaves(defaults))
    changes[c["id"]] = sorted(p for p, v in leaves(merged) if base.get(p) != v)

assert defaults["limits"]["per_day"] == 5, "defaults must not be mutated"
return {
    "c1": {p: get_path(settings["c1"], p) for p in changes["c1"]},
    "changes": changes,
    "channels": {cid: get_path(s, "notify.channel") for cid, s in settings.items()},
}

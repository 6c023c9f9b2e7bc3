# description: Resolve per-customer notification settings from layered ChainMap defaults
# value: {"resolved": {"c1": {"channel": "push", "digest": "daily", "language": "en", "quiet_hours": false}, "c2": {"channel": "email", "digest": "daily", "language": "en", "quiet_hours": true}, "c3": {"channel": "email", "digest": "weekly", "language": "en", "quiet_hours": false}, "c4": {"channel": "sms", "digest": "daily", "language": "en", "quiet_hours": true}, "c5": {"channel": "email", "digest": "weekly", "language": "nl", "quiet_hours": false}, "c6": {"channel": "push", "digest": "daily", "language": "en", "quiet_hours": true}}, "child": {"channel": "email", "quiet_hours": false, "digest": "never", "language": "en"}, "child_parent_is_base": true, "defaults_untouched": "weekly", "sources": {"channel": 0, "digest": 2, "language": 3, "quiet_hours": 1}, "err": "\"Key not found in the first mapping: 'language'\"", "len": 4}
from collections import ChainMap

DEFAULTS = {"channel": "email", "quiet_hours": False, "digest": "weekly", "language": "en"}
TIER = {
    "enterprise": {"channel": "push", "digest": "daily"},
    "pro": {"digest": "daily"},
    "free": {},
}
COUNTRY = {"NL": {"language": "nl"}, "US": {"quiet_hours": True}}
OVERRIDES = {"c4": {"channel": "sms"}}

customers = await tools.list_customers()
resolved = {}
for c in customers:
    cfg = ChainMap(OVERRIDES.get(c["id"], {}), COUNTRY.get(c["address"]["country"], {}), TIER[c["tier"]], DEFAULTS)
    resolved[c["id"]] = dict(sorted(cfg.items()))

base = ChainMap(DEFAULTS)
child = base.new_child({"channel": "sms"})
child["digest"] = "never"
del child["channel"]
sources = {}
cfg = ChainMap(OVERRIDES["c4"], COUNTRY["US"], TIER["pro"], DEFAULTS)
for key in sorted(DEFAULTS):
    sources[key] = next(i for i, m in enumerate(cfg.maps) if key in m)
try:
    del cfg["language"]
    err = None
except KeyError as e:
    err = str(e)
return {
    "resolved": resolved,
    "child": dict(child),
    "child_parent_is_base": child.parents.maps == base.maps,
    "defaults_untouched": DEFAULTS["digest"],
    "sources": sources,
    "err": err,
    "len": len(cfg),
}

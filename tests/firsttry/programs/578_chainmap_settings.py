# description: Layer notification settings with ChainMap (per-customer over tier over defaults)
# value: {"resolved": {"c1": {"channel": "email", "digest": "daily", "language": "en"}, "c2": {"channel": "push", "digest": "weekly", "language": "en"}, "c3": {"channel": "email", "digest": "weekly", "language": "en"}, "c4": {"channel": "sms", "digest": "weekly", "language": "en-US"}, "c5": {"channel": "email", "digest": "weekly", "language": "en"}, "c6": {"channel": "email", "digest": "daily", "language": "en"}}, "child": "never", "parents": {"channel": "email", "digest": "weekly", "language": "en"}, "maps": 2}
from collections import ChainMap

defaults = {"channel": "email", "digest": "weekly", "language": "en"}
tier_settings = {"enterprise": {"digest": "daily"}, "pro": {"channel": "push"}, "free": {}}
overrides = {"c4": {"language": "en-US", "channel": "sms"}}

customers = await tools.list_customers()
resolved = {}
for c in customers:
    settings = ChainMap(overrides.get(c["id"], {}), tier_settings[c["tier"]], defaults)
    resolved[c["id"]] = dict(sorted(settings.items()))
child = ChainMap(defaults).new_child({"digest": "never"})
return {"resolved": resolved, "child": child["digest"], "parents": dict(child.parents), "maps": len(child.maps)}

# description: Resolve notification settings from layered defaults with ChainMap
# value: {"resolved": {"c1": {"channel": "email", "quiet_hours": false, "digest": "daily", "language": "en"}, "c2": {"channel": "push", "quiet_hours": false, "digest": "weekly", "language": "en"}, "c3": {"channel": "sms", "quiet_hours": false, "digest": "weekly", "language": "en-GB"}, "c4": {"channel": "push", "quiet_hours": false, "digest": "weekly", "language": "en"}, "c5": {"channel": "email", "quiet_hours": false, "digest": "weekly", "language": "en"}, "c6": {"channel": "email", "quiet_hours": true, "digest": "daily", "language": "en"}}, "maps": 3, "child_first": {"digest": "monthly", "language": "fr"}, "parents": {}}
from collections import ChainMap

defaults = {"channel": "email", "quiet_hours": False, "digest": "weekly", "language": "en"}
tier_overrides = {
    "enterprise": {"digest": "daily"},
    "pro": {"channel": "push"},
    "free": {},
}
per_customer = {"c3": {"channel": "sms", "language": "en-GB"}, "c6": {"quiet_hours": True}}

resolved = {}
for c in await tools.list_customers():
    settings = ChainMap(per_customer.get(c["id"], {}), tier_overrides[c["tier"]], defaults)
    resolved[c["id"]] = dict(settings)
    if settings["channel"] == "push" and not settings["quiet_hours"]:
        await tools.send_notification(to=c["id"], message="Settings updated", channel="push")

layered = ChainMap({}, defaults).new_child({"digest": "monthly"})
layered["language"] = "fr"
return {"resolved": resolved, "maps": len(layered.maps), "child_first": dict(layered.maps[0]), "parents": dict(layered.parents.maps[0])}

# description: Derive per-tier notification configs from a base with deepcopy, then pretty-print them
# value: {"plan": {"c1": ["email", "sms", "push"], "c2": ["email", "sms"], "c3": ["email"], "c4": ["email", "sms"], "c5": ["email"], "c6": ["email", "sms", "push"]}, "base_channels": ["email", "fax"], "deep_shared": true, "deep_cc": ["ops@example.com", "audit@example.com"], "base_cc": ["ops@example.com"], "pformat": ["{'bcc': ['ops@example.com'],", " 'cc': ['ops@example.com'],", " 'channels': ['email', 'sms', 'push'],", " 'limits': {'per_day': 6, 'quiet_hours': []},", " 'templates': {'refund': 'Refunded {amount}',", "               'welcome': 'Hi {name}'}}"], "unsorted": ["{'z': 1,", " 'a': [1, 2, 3, 1, 2, 3, 1, 2,", "       3, 1, 2, 3, 1, 2, 3, 1,", "       2, 3]}"], "saferepr": "{'x': [1, 2]}", "isreadable": true}
# logs: ["{'c1': ['email', 'sms', 'push'],", " 'c2': ['email', 'sms'],", " 'c3': ['email'],", " 'c4': ['email', 'sms'],", " 'c5': ['email'],", " 'c6': ['email', 'sms', 'push']}", "{'b': 1, 'a': 2}"]
import copy
import pprint

base = {
    "channels": ["email"],
    "limits": {"per_day": 3, "quiet_hours": [22, 7]},
    "templates": {"welcome": "Hi {name}", "refund": "Refunded {amount}"},
}
shared_list = ["ops@example.com"]
base["cc"] = shared_list
base["bcc"] = shared_list

configs = {}
for tier in ("free", "pro", "enterprise"):
    cfg = copy.deepcopy(base)
    if tier != "free":
        cfg["channels"].append("sms")
        cfg["limits"]["per_day"] *= 2
    if tier == "enterprise":
        cfg["channels"].append("push")
        cfg["limits"]["quiet_hours"] = []
    configs[tier] = cfg

shallow = copy.copy(base)
shallow["channels"].append("fax")
deep = copy.deepcopy(base)
deep["cc"].append("audit@example.com")

customers = await tools.list_customers()
plan = {c["id"]: configs[c["tier"]]["channels"] for c in customers}
text = pprint.pformat(configs["enterprise"], width=50, sort_dicts=True)
unsorted = pprint.pformat({"z": 1, "a": [1, 2, 3] * 6}, width=30, sort_dicts=False, compact=True)
pprint.pprint(plan, width=60)
pprint.pp({"b": 1, "a": 2})
return {
    "plan": plan,
    "base_channels": base["channels"],
    "deep_shared": deep["cc"] is deep["bcc"],
    "deep_cc": deep["bcc"],
    "base_cc": base["cc"],
    "pformat": text.splitlines(),
    "unsorted": unsorted.splitlines(),
    "saferepr": pprint.saferepr({"x": [1, 2]}),
    "isreadable": pprint.isreadable({"a": 1}),
}

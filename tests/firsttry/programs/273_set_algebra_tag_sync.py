# description: Sync customer tags with rule-derived tags, adding only what is missing
# value: {"report": {"c1": {"added": ["has-pending", "high-value", "sla"], "unmanaged": ["beta"], "in_sync": true, "diff": ["beta", "has-pending", "high-value", "sla"]}, "c2": {"added": ["has-pending", "international"], "unmanaged": ["beta"], "in_sync": true, "diff": ["beta", "has-pending", "international"]}, "c3": {"added": [], "unmanaged": [], "in_sync": true, "diff": []}, "c4": {"added": ["has-pending", "international"], "unmanaged": ["vip"], "in_sync": true, "diff": ["has-pending", "international", "vip"]}, "c5": {"added": ["international"], "unmanaged": [], "in_sync": true, "diff": ["international"]}, "c6": {"added": ["has-pending", "high-value", "international", "sla"], "unmanaged": [], "in_sync": true, "diff": ["has-pending", "high-value", "international", "sla"]}}, "groups": [[[], ["c3"]], [["has-pending", "high-value", "international", "sla"], ["c6"]], [["has-pending", "high-value", "sla"], ["c1"]], [["has-pending", "international"], ["c2", "c4"]], [["international"], ["c5"]]], "added_to_all_changed": []}
from collections import defaultdict

def desired(customer: dict, orders: list[dict]) -> set[str]:
    tags = set()
    spent = sum(o["total"] for o in orders if o["status"] != "cancelled")
    if spent > 500:
        tags.add("high-value")
    if any(o["status"] == "pending" for o in orders):
        tags.add("has-pending")
    if customer["address"]["country"] != "UK":
        tags.add("international")
    if customer["tier"] == "enterprise":
        tags |= {"vip", "sla"}
    return tags

report = {}
by_change: defaultdict[frozenset[str], list[str]] = defaultdict(list)
for c in await tools.list_customers():
    orders = await tools.list_orders(customer_id=c["id"])
    want, have = desired(c, orders), set(c["tags"])
    missing, extra = want - have, have - want
    if missing:
        updated = await tools.tag_customer(customer_id=c["id"], tags=sorted(missing))
        have = set(updated["tags"])
    by_change[frozenset(missing)].append(c["id"])
    report[c["id"]] = {"added": sorted(missing), "unmanaged": sorted(extra), "in_sync": want <= have,
                       "diff": sorted(want ^ set(c["tags"]))}
common = set.intersection(*(set(r["added"]) for r in report.values() if r["added"]))
return {
    "report": report,
    "groups": sorted([sorted(k), v] for k, v in by_change.items()),
    "added_to_all_changed": sorted(common),
}

# description: Sort support queue entries with mixed ascending/descending keys and cmp_to_key
# value: {"by_cmp": ["o-1010", "o-1003", "o-1002", "o-1009", "o-1008", "o-1005"], "same": true, "oldest_desc": ["o-1008", "o-1005", "o-1009", "o-1002", "o-1003", "o-1010"], "names": ["Alice", "alice", "bob", "Bob", "eve", "\u00c9mile"], "nums": ["1", "9", "10", "100"], "stable": [["c", 1], ["b", 2], ["a", 2]], "top_total": "o-1002", "rev": ["c", "b", "a"]}
from functools import cmp_to_key
from operator import itemgetter

customers = {c["id"]: c for c in await tools.list_customers()}
tier_rank = {"enterprise": 0, "pro": 1, "free": 2}
queue = []
for cid in customers:
    for o in await tools.list_orders(customer_id=cid):
        if o["status"] in ("pending", "shipped"):
            queue.append({"order": o["id"], "cid": cid, "tier": customers[cid]["tier"], "status": o["status"], "created": o["created"], "total": o["total"]})


def compare(a, b):
    if tier_rank[a["tier"]] != tier_rank[b["tier"]]:
        return tier_rank[a["tier"]] - tier_rank[b["tier"]]
    if a["status"] != b["status"]:
        return -1 if a["status"] == "pending" else 1
    return (b["total"] > a["total"]) - (b["total"] < a["total"])


by_cmp = [q["order"] for q in sorted(queue, key=cmp_to_key(compare))]
by_tuple = [q["order"] for q in sorted(queue, key=lambda q: (tier_rank[q["tier"]], q["status"] != "pending", -q["total"]))]
oldest_first_desc_tier = [q["order"] for q in sorted(sorted(queue, key=itemgetter("created")), key=itemgetter("tier"), reverse=True)]
names = sorted(["bob", "Alice", "alice", "Bob", "Émile", "eve"], key=str.casefold)
nums = sorted(["10", "9", "100", "1"], key=int)
stable = sorted([("b", 2), ("a", 2), ("c", 1)], key=itemgetter(1))
queue.sort(key=itemgetter("total"), reverse=True)
return {"by_cmp": by_cmp, "same": by_cmp == by_tuple, "oldest_desc": oldest_first_desc_tier, "names": names, "nums": nums,
        "stable": stable, "top_total": queue[0]["order"], "rev": list(reversed(sorted("cab")))}

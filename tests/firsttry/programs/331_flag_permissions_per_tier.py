# description: Work out which support actions each customer is entitled to from their tier and tags
# value: {"values": {"c1": 31, "c2": 19, "c3": 1, "c4": 15, "c5": 1, "c6": 15}, "phone": ["c1", "c4", "c6"], "full_premium": ["c1", "c4", "c6"], "beta_without_priority": ["c2"], "premium_members": ["EMAIL", "CHAT", "PHONE", "PRIORITY"], "bool_none": false, "inverted": "PHONE|PRIORITY"}
# logs: ["c1  31 EMAIL|CHAT|PHONE|PRIORITY|BETA", "c2  19 EMAIL|CHAT|BETA", "c3   1 EMAIL", "c4  15 EMAIL|CHAT|PHONE|PRIORITY", "c5   1 EMAIL", "c6  15 EMAIL|CHAT|PHONE|PRIORITY"]
from enum import Flag, auto

class Perm(Flag):
    NONE = 0
    EMAIL = auto()
    CHAT = auto()
    PHONE = auto()
    PRIORITY = auto()
    BETA = auto()
    STANDARD = EMAIL | CHAT
    PREMIUM = STANDARD | PHONE | PRIORITY

TIER = {"free": Perm.EMAIL, "pro": Perm.STANDARD, "enterprise": Perm.PREMIUM}
TAG = {"vip": Perm.PRIORITY | Perm.PHONE, "beta": Perm.BETA}

rows = {}
for c in await tools.list_customers():
    perms = TIER[c["tier"]]
    for t in c["tags"]:
        perms |= TAG.get(t, Perm.NONE)
    rows[c["id"]] = perms

for cid, p in rows.items():
    names = [m.name for m in Perm if m in p and m.name not in ("NONE",)]
    print(f"{cid} {p.value:>3} {'|'.join(n for n in names if n not in ('STANDARD', 'PREMIUM'))}")

return {
    "values": {cid: p.value for cid, p in rows.items()},
    "phone": sorted(cid for cid, p in rows.items() if Perm.PHONE in p),
    "full_premium": sorted(cid for cid, p in rows.items() if p & Perm.PREMIUM == Perm.PREMIUM),
    "beta_without_priority": sorted(cid for cid, p in rows.items() if Perm.BETA in p and not p & Perm.PRIORITY),
    "premium_members": [m.name for m in Perm.PREMIUM],
    "bool_none": bool(Perm.NONE), "inverted": (~Perm.STANDARD & Perm.PREMIUM).name,
}

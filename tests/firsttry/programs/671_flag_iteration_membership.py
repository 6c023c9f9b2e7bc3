# description: Enum Flag permissions, iterate members of a combination, test membership and invert
# value: {"c1": {"names": ["READ", "WRITE", "REFUND"], "can_refund": true, "missing": [], "count": 3}, "c2": {"names": ["READ", "WRITE"], "can_refund": false, "missing": ["REFUND"], "count": 2}, "c3": {"names": ["READ"], "can_refund": false, "missing": ["WRITE", "REFUND"], "count": 1}, "c4": {"names": ["READ", "WRITE"], "can_refund": false, "missing": ["REFUND"], "count": 2}, "c5": {"names": ["READ"], "can_refund": false, "missing": ["WRITE", "REFUND"], "count": 1}, "c6": {"names": ["READ", "WRITE", "REFUND"], "can_refund": true, "missing": [], "count": 3}}
from enum import Flag, auto

class Perm(Flag):
    READ = auto()
    WRITE = auto()
    REFUND = auto()
    ADMIN = READ | WRITE | REFUND

by_tier = {"free": Perm.READ, "pro": Perm.READ | Perm.WRITE, "enterprise": Perm.ADMIN}
customers = await tools.list_customers()
out = {}
for c in customers:
    perms = by_tier[c["tier"]]
    out[c["id"]] = {
        "names": [p.name for p in perms],
        "can_refund": Perm.REFUND in perms,
        "missing": [p.name for p in ~perms],
        "count": len(perms),
    }
return out

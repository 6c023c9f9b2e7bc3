# description: Work out each customer's permissions from tier and tags with an IntFlag
# value: {"c1": {"value": 15, "names": ["READ", "WRITE", "EXPORT", "ADMIN"], "can_write": true}, "c2": {"value": 7, "names": ["READ", "WRITE", "EXPORT"], "can_write": true}, "c3": {"value": 1, "names": ["READ"], "can_write": false}, "c4": {"value": 7, "names": ["READ", "WRITE", "EXPORT"], "can_write": true}, "c5": {"value": 1, "names": ["READ"], "can_write": false}, "c6": {"value": 15, "names": ["READ", "WRITE", "EXPORT", "ADMIN"], "can_write": true}}
# logs: ["c1: 15 (15)", "c2: 7 (7)", "c3: 1 (1)", "c4: 7 (7)", "c5: 1 (1)", "c6: 15 (15)"]
from enum import IntFlag, auto

class Perm(IntFlag):
    READ = auto()
    WRITE = auto()
    EXPORT = auto()
    ADMIN = auto()
    BASIC = READ
    POWER = READ | WRITE | EXPORT

TIER_PERMS = {"free": Perm.BASIC, "pro": Perm.POWER, "enterprise": Perm.POWER | Perm.ADMIN}

customers = await tools.list_customers()
summary = {}
for c in customers:
    perms = TIER_PERMS[c["tier"]]
    if "beta" in c["tags"]:
        perms |= Perm.EXPORT
    if "vip" not in c["tags"]:
        perms &= ~Perm.ADMIN
    summary[c["id"]] = {
        "value": int(perms),
        "names": [p.name for p in Perm if p in perms and p.name not in ("BASIC", "POWER")],
        "can_write": Perm.WRITE in perms,
    }
    print(f"{c['id']}: {perms!s} ({perms:d})")
return summary

# description: Classify customers with IntEnum tiers, Flag permissions and StrEnum channels
# value: {"rows": [{"id": "c1", "tier": 3, "perms": ["READ", "WRITE", "EXPORT"], "can_export": true, "channel": "push"}, {"id": "c6", "tier": 3, "perms": ["READ", "WRITE", "EXPORT"], "can_export": true, "channel": "push"}, {"id": "c2", "tier": 2, "perms": ["READ", "WRITE"], "can_export": false, "channel": "push"}, {"id": "c4", "tier": 2, "perms": ["READ", "WRITE"], "can_export": false, "channel": "push"}, {"id": "c3", "tier": 1, "perms": ["READ"], "can_export": false, "channel": "email"}, {"id": "c5", "tier": 1, "perms": ["READ"], "can_export": false, "channel": "email"}], "sent": "push", "mixed": "Perm.READ|EXPORT", "mixed_value": 5, "admin_has_write": true, "none": false, "tier_sum": 6, "tier_cmp": true, "str_channel": "sms|sms|True", "missing": "GREEN", "members": ["FREE", "PRO", "ENTERPRISE"], "repr": "<Tier.PRO: 2>"}
# limitation: an Enum cannot define the _missing_ hook (sunder names refused)
from enum import Enum, IntEnum, Flag, StrEnum, auto


class Tier(IntEnum):
    FREE = 1
    PRO = 2
    ENTERPRISE = 3


class Perm(Flag):
    READ = auto()
    WRITE = auto()
    EXPORT = auto()
    ADMIN = READ | WRITE | EXPORT


class Channel(StrEnum):
    EMAIL = auto()
    SMS = auto()
    PUSH = auto()


class Color(Enum):
    RED = "r"
    GREEN = "g"

    @classmethod
    def _missing_(cls, value):
        if isinstance(value, str):
            for m in cls:
                if m.name.lower() == value.lower():
                    return m
        return None


PERMS = {Tier.FREE: Perm.READ, Tier.PRO: Perm.READ | Perm.WRITE, Tier.ENTERPRISE: Perm.ADMIN}
customers = await tools.list_customers()
rows = []
for c in customers:
    tier = Tier[c["tier"].upper()]
    perms = PERMS[tier]
    channel = Channel.PUSH if tier >= Tier.PRO else Channel.EMAIL
    rows.append({
        "id": c["id"],
        "tier": int(tier),
        "perms": [p.name for p in Perm if p in perms and p is not Perm.ADMIN],
        "can_export": Perm.EXPORT in perms,
        "channel": channel,
    })

rows.sort(key=lambda r: (-r["tier"], r["id"]))
sent = await tools.send_notification(to=rows[0]["id"], message="hello", channel=Channel.PUSH.value)
mixed = Perm.READ | Perm.EXPORT
return {
    "rows": rows,
    "sent": sent["channel"],
    "mixed": str(mixed),
    "mixed_value": mixed.value,
    "admin_has_write": bool(Perm.ADMIN & Perm.WRITE),
    "none": bool(Perm(0)),
    "tier_sum": sum(Tier),
    "tier_cmp": Tier.PRO > 1,
    "str_channel": f"{Channel.SMS}|{Channel.SMS.value}|{Channel.SMS == 'sms'}",
    "missing": Color("green").name,
    "members": list(Tier.__members__),
    "repr": repr(Tier.PRO),
}

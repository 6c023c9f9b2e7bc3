# description: Map customer tiers to a StrEnum of support levels and count them
# value: {"levels": {"basic": 2, "dedicated": 2, "priority": 2}, "values": ["basic", "priority", "dedicated"], "joined": "basic/priority/dedicated"}
# logs: ["dedicated -> DEDICATED (PRIORITY)"]
from enum import StrEnum, auto
from collections import Counter

class Support(StrEnum):
    BASIC = auto()
    PRIORITY = auto()
    DEDICATED = auto()

TIER_SUPPORT = {"free": Support.BASIC, "pro": Support.PRIORITY, "enterprise": Support.DEDICATED}
customers = await tools.list_customers()
levels = Counter(TIER_SUPPORT[c["tier"]] for c in customers)
print(f"{Support.DEDICATED} -> {Support.DEDICATED.upper()} ({Support('priority').name})")
return {"levels": {str(k): v for k, v in sorted(levels.items())},
        "values": [s.value for s in Support], "joined": "/".join(Support)}

# description: Return a report made of namedtuples, str and int enums, a Counter, an OrderedDict, a defaultdict and nested tuples
# value: {"rows": [["c1", "Ada Lovelace", "enterprise"], ["c2", "Grace Hopper", "pro"]], "tiers": {"enterprise": 2, "pro": 2, "free": 2}, "ordered_keys": ["c2", "c3", "c4", "c5", "c6", "c1"], "ordered": {"c2": "Grace Hopper", "c3": "Alan Turing", "c4": "Katherine Johnson", "c5": "Edsger Dijkstra", "c6": "Margaret Hamilton", "c1": "Ada Lovelace"}, "by_country": {"UK": ["c1", "c3"], "US": ["c2", "c4", "c6"], "NL": ["c5"]}, "tier": "pro", "rank": 2, "ranks": [1, 2], "nested": [[1, 2], [3, [4, 5]]], "empty_tuple": [], "bool_int": [true, 1, 1.0]}
from collections import Counter, OrderedDict, defaultdict, namedtuple
from enum import Enum, IntEnum

class Tier(str, Enum):
    FREE = "free"
    PRO = "pro"
    ENTERPRISE = "enterprise"

class Rank(IntEnum):
    LOW = 1
    HIGH = 2

Row = namedtuple("Row", "id name tier")
customers = await tools.list_customers()
rows = [Row(c["id"], c["name"], Tier(c["tier"])) for c in customers]
tiers = Counter(r.tier.value for r in rows)
ordered = OrderedDict((r.id, r.name) for r in rows)
ordered.move_to_end("c1")
by_country = defaultdict(list)
for c in customers:
    by_country[c["address"]["country"]].append(c["id"])
return {
    "rows": rows[:2], "tiers": tiers, "ordered_keys": list(ordered), "ordered": ordered,
    "by_country": by_country, "tier": Tier.PRO, "rank": Rank.HIGH, "ranks": [Rank.LOW, Rank.HIGH],
    "nested": ((1, 2), [3, (4, 5)]), "empty_tuple": (), "bool_int": [True, 1, 1.0],
}

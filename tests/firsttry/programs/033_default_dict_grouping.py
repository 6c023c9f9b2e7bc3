# description: Group customers by country and tier
# value: {"by_country": {"NL": ["Edsger Dijkstra"], "UK": ["Ada Lovelace", "Alan Turing"], "US": ["Grace Hopper", "Katherine Johnson", "Margaret Hamilton"]}, "tiers": {"UK": {"enterprise": 1, "free": 1}, "US": {"pro": 2, "enterprise": 1}, "NL": {"free": 1}}}
from collections import defaultdict

customers = await tools.list_customers()
by_country = defaultdict(list)
tiers = defaultdict(lambda: defaultdict(int))
for c in customers:
    country = c["address"]["country"]
    by_country[country].append(c["name"])
    tiers[country][c["tier"]] += 1

return {
    "by_country": {k: sorted(v) for k, v in sorted(by_country.items())},
    "tiers": {k: dict(v) for k, v in tiers.items()},
}

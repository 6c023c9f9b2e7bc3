# description: Correlate billing failures with customers and summarise the incident
# value: {"affected": 4, "enterprise": ["c1", "c6"], "lines": ["Ada Lovelace (enterprise): GET /search?q=refund", "Grace Hopper (pro): GET /orders/o-1005", "Alan Turing (free): card_declined \u20ac45.00", "Margaret Hamilton (enterprise): insufficient_funds \u20ac149.00"]}
# logs: ["Ada Lovelace (enterprise): GET /search?q=refund", "Grace Hopper (pro): GET /orders/o-1005", "Alan Turing (free): card_declined \u20ac45.00", "Margaret Hamilton (enterprise): insufficient_funds \u20ac149.00"]
import asyncio
import re
from collections import defaultdict

billing, api = await asyncio.gather(tools.fetch_logs(service="billing"), tools.fetch_logs(service="api"))
failures = [m.groupdict() for m in re.finditer(r"charge failed (?P<reason>\w+) amount=(?P<amount>[\d.]+) user=(?P<user>c\d+)", billing)]
api_errors = defaultdict(list)
for m in re.finditer(r"(?P<method>[A-Z]+) (?P<path>\S+) (?P<status>5\d\d) \d+ms user=(?P<user>c\d+)", api):
    api_errors[m["user"]].append(f"{m['method']} {m['path']}")

users = sorted({f["user"] for f in failures} | set(api_errors))
customers = {c["id"]: c for c in await asyncio.gather(*(tools.get_customer(customer_id=u) for u in users))}
lines = []
for uid in users:
    c = customers[uid]
    parts = [f"{f['reason']} €{float(f['amount']):.2f}" for f in failures if f["user"] == uid] + api_errors.get(uid, [])
    lines.append(f"{c['name']} ({c['tier']}): " + "; ".join(parts))
summary = "\n".join(lines)
print(summary)
return {"affected": len(users), "enterprise": [u for u in users if customers[u]["tier"] == "enterprise"], "lines": lines}

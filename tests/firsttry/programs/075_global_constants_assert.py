# description: Check that enterprise customers have no stale pending orders
# value: {"c1": "Ada Lovelace", "c6": "Margaret Hamilton", "stale": {}}
MAX_PENDING_DAYS = 2
TODAY = "2024-06-15"

from datetime import date

enterprise = await tools.list_customers(tier="enterprise")
assert enterprise, "expected at least one enterprise customer"

stale = {}
for customer in enterprise:
    pending = await tools.list_orders(customer_id=customer["id"], status="pending")
    ages = [(date.fromisoformat(TODAY) - date.fromisoformat(o["created"])).days for o in pending]
    oldest = max(ages, default=0)
    if oldest > MAX_PENDING_DAYS:
        stale[customer["id"]] = oldest

if not stale:
    print("All enterprise orders are fresh")

return dict(sorted({c["id"]: c["name"] for c in enterprise}.items())) | {"stale": stale}

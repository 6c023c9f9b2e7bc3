# description: Orders created after June 10th, then look up each distinct customer concurrently
# value: [{"customer": "Ada Lovelace", "tier": "enterprise", "orders": ["o-1003"]}, {"customer": "Grace Hopper", "tier": "pro", "orders": ["o-1005"]}, {"customer": "Katherine Johnson", "tier": "pro", "orders": ["o-1008"]}, {"customer": "Margaret Hamilton", "tier": "enterprise", "orders": ["o-1010"]}]
import asyncio
page = await tools.search_orders(filters={"created_after": "2024-06-10"}, limit=10)
ids = sorted({o["customer_id"] for o in page["orders"]})
customers = await asyncio.gather(*(tools.get_customer(customer_id=i) for i in ids))
return [{"customer": c["name"], "tier": c["tier"], "orders": [o["id"] for o in page["orders"] if o["customer_id"] == c["id"]]} for c in customers]

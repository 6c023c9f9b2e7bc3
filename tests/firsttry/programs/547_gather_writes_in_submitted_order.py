# description: Queue notifications concurrently and check receipts follow submission order
# value: [["ntf-1", "ada@example.com"], ["ntf-2", "margaret@example.com"], ["ntf-3", "grace@example.com"], ["ntf-4", "katherine@example.com"]]
import asyncio
customers = await tools.list_customers(tier="enterprise")
customers += await tools.list_customers(tier="pro")
receipts = await asyncio.gather(*(
    tools.send_notification(to=c["email"], message=f"Hello {c['name'].split()[0]}") for c in customers
))
return [[r["id"], r["to"]] for r in receipts]

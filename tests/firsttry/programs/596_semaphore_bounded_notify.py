# description: Notify every VIP customer with at most two sends in flight through asyncio.Semaphore
# value: {"c1": "queued", "c4": "queued", "c6": "queued"}
# logs: ["notified 3 VIPs"]
import asyncio

sem = asyncio.Semaphore(2)
customers = await tools.list_customers()
vips = [c for c in customers if "vip" in c["tags"]]

async def notify(customer):
    async with sem:
        receipt = await tools.send_notification(to=customer["email"], message=f"Thanks for being a VIP, {customer['name']}!")
        return customer["id"], receipt["status"]

results = dict(await asyncio.gather(*(notify(c) for c in vips)))
print(f"notified {len(results)} VIPs")
return results

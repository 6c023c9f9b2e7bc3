# description: Send templated shipping updates to customers with open orders, a few at a time, and summarise delivery
# value: {"sent": 6, "errors": ["tool \"send_notification\" raised ValueError: 'not-an-email' is not an email address"], "peak_ok": true, "preview": "check: $missing_field", "example": "Hi Ada, your order o-1 (1 item) is shipped. Total: \u20ac9.00."}
# logs: ["sent 6/7, peak concurrency 2"]
import asyncio
from string import Template

EMAIL = Template("Hi $first, your order $order ($items item${plural}) is $status. Total: €$total.")
SMS = Template("$order is $status")

customers = await tools.list_customers()
sem = asyncio.Semaphore(2)
active = 0
peak = 0

async def notify(customer: dict, order: dict, channel: str) -> dict:
    global active, peak
    items = sum(l["quantity"] for l in order["lines"])
    fields = {"first": customer["name"].split()[0], "order": order["id"], "items": items,
              "plural": "" if items == 1 else "s", "status": order["status"], "total": f"{order['total']:.2f}"}
    message = (EMAIL if channel == "email" else SMS).substitute(fields)
    to = customer["email"] if channel == "email" else customer["name"]
    async with sem:
        active += 1
        peak = max(peak, active)
        try:
            await asyncio.sleep(0)
            return await tools.send_notification(to=to, message=message, channel=channel)
        finally:
            active -= 1

jobs = []
for c in customers:
    for o in await tools.list_orders(customer_id=c["id"]):
        if o["status"] in ("pending", "shipped"):
            channel = "email" if c["tier"] != "free" else "sms"
            jobs.append((c, o, channel))
jobs.append(({"name": "Broken Address", "email": "not-an-email", "tier": "pro"}, {"id": "o-0000", "status": "pending", "lines": [{"quantity": 1}], "total": 0}, "email"))

results = await asyncio.gather(*(notify(*j) for j in jobs), return_exceptions=True)
sent = [r["id"] for r in results if isinstance(r, dict)]
errors = [str(r) for r in results if isinstance(r, BaseException)]
preview = Template("$who: $missing_field").safe_substitute(who="check")
print(f"sent {len(sent)}/{len(jobs)}, peak concurrency {peak}")
return {"sent": len(sent), "errors": errors, "peak_ok": peak <= 2, "preview": preview,
        "example": EMAIL.substitute(first="Ada", order="o-1", items=1, plural="", status="shipped", total="9.00")}

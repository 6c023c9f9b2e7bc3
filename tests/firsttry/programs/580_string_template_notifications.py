# description: Send pending-order reminders rendered with string.Template
# value: {"receipts": ["ntf-1", "ntf-2"], "partial": "Hello Ada, $missing"}
# logs: ["Dear Ada Lovelace, order o-1003 (188.00 EUR) is still pending. Reply STOP to opt out.", "Dear Grace Hopper, order o-1005 (70.50 EUR) is still pending. Reply STOP to opt out."]
from string import Template

reminder = Template("Dear $name, order $order_id ($total EUR) is still ${status}. Reply STOP to opt out.")
receipts = []
for cid in ("c1", "c2"):
    customer = await tools.get_customer(customer_id=cid)
    for order in await tools.list_orders(customer_id=cid, status="pending"):
        text = reminder.substitute(name=customer["name"], order_id=order["id"], total=f"{order['total']:.2f}", status=order["status"])
        receipt = await tools.send_notification(to=customer["email"], message=text)
        receipts.append(receipt["id"])
        print(text)
partial = Template("Hello $name, $missing").safe_substitute(name="Ada")
return {"receipts": receipts, "partial": partial}

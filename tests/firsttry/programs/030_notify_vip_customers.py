# description: Notify VIP customers about the summer sale
# value: [{"customer": "c1", "receipt": "ntf-1", "status": "queued"}, {"customer": "c4", "receipt": "ntf-2", "status": "queued"}, {"customer": "c6", "receipt": "ntf-3", "status": "queued"}]
# logs: ["Notified 3 VIP customers"]
customers = await tools.list_customers()
vips = [c for c in customers if "vip" in c.get("tags", [])]

receipts = []
for c in vips:
    first_name = c["name"].split()[0]
    r = await tools.send_notification(
        to=c["email"],
        message=f"Hi {first_name}, as a VIP you get early access to our summer sale!",
    )
    receipts.append({"customer": c["id"], "receipt": r["id"], "status": r["status"]})

print(f"Notified {len(receipts)} VIP customers")
return receipts

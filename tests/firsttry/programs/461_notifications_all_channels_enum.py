# description: Notify VIP customers on each channel the SDK's Literal lists, collecting receipt ids
# value: ["ntf-1:email:queued", "ntf-2:sms:queued", "ntf-3:push:queued"]
channels = ["email", "sms", "push"]
receipts = []
vips = [c for c in await tools.list_customers() if "vip" in c["tags"]]
for i, c in enumerate(vips):
    channel = channels[i % len(channels)]
    to = {"email": c["email"], "sms": "+44 20 7946 0000", "push": c["id"]}[channel]
    r = await tools.send_notification(to=to, message=f"Hi {c['name'].split()[0]}, thanks for being a VIP!", channel=channel)
    receipts.append(f"{r['id']}:{r['channel']}:{r['status']}")
return receipts

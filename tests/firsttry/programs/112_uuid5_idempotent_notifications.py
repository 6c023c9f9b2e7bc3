# description: Send notifications with deterministic idempotency keys
# value: {"keys": ["518a012a-2ff5-52c1-b0ba-d0be987165cc", "6befb7ec-53df-58a2-a09d-f58ca7b37478"], "version": 5, "receipts": ["ntf-1", "ntf-2"]}
import uuid

NS = uuid.uuid5(uuid.NAMESPACE_DNS, "support.example.com")
sent = {}
for customer in await tools.list_customers(tier="pro"):
    key = uuid.uuid5(NS, f"{customer['id']}:weekly-digest")
    if str(key) in sent:
        continue
    receipt = await tools.send_notification(
        to=customer["email"],
        message=f"Your weekly digest (ref {key.hex[:8]})",
    )
    sent[str(key)] = receipt["id"]
return {"keys": sorted(sent), "version": NS.version, "receipts": sorted(sent.values())}

# description: Deduplicate notification messages by hash
# value: {"sent": ["ntf-1", "ntf-2"], "checksum": "59dcc6658300"}
import hashlib

messages = [
    "Your order has shipped",
    "Your order has shipped",
    "Your refund is on its way",
    "your order has shipped",
]

seen = set()
unique = []
for m in messages:
    digest = hashlib.sha256(m.lower().encode("utf-8")).hexdigest()
    if digest in seen:
        continue
    seen.add(digest)
    unique.append(m)

receipts = []
for m in unique:
    receipt = await tools.send_notification(to="ada@example.com", message=m)
    receipts.append(receipt["id"])

return {
    "sent": receipts,
    "checksum": hashlib.md5("|".join(unique).encode()).hexdigest()[:12],
}

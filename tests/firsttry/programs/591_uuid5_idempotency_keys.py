# description: Derive stable idempotency keys with uuid.uuid5 before cancelling pending orders
# value: {"done": [{"order": "o-1005", "key": "f7a3a0fa-065f-5444-b764-d89ff47ad0cc", "refund": 70.5, "version": 5}, {"order": "o-1008", "key": "4b4b40fd-2ebc-588d-8209-64d729e8452e", "refund": 97.5, "version": 5}], "same": true, "urn": "urn:uuid:"}
import uuid

NAMESPACE = uuid.uuid5(uuid.NAMESPACE_DNS, "shop.example.com")
orders = await tools.search_orders(filters={"status": ["pending"], "customer_ids": ["c2", "c4"]}, limit=10)
done = []
for o in orders["orders"]:
    key = uuid.uuid5(NAMESPACE, f"cancel:{o['id']}")
    result = await tools.cancel_order(order_id=o["id"], reason=f"bulk cancel {key.hex[:8]}")
    done.append({"order": o["id"], "key": str(key), "refund": result["refund"], "version": key.version})
parsed = uuid.UUID(done[0]["key"])
return {"done": done, "same": parsed == uuid.uuid5(NAMESPACE, f"cancel:{done[0]['order']}"), "urn": parsed.urn[:9]}

# description: Open tickets with idempotency keys
# value: [{"ticket": "T-101", "key": "2e6e6e8b-4d71-597e-8bdd-bfc99080386f"}, {"ticket": "T-102", "key": "d72e5672-55b7-512b-a9ec-44433f2d8844"}]
import uuid

NAMESPACE = uuid.uuid5(uuid.NAMESPACE_DNS, "support.example.com")

tickets = []
for customer_id, subject in [("c2", "Mouse out of stock"), ("c5", "Invoice copy")]:
    key = uuid.uuid5(NAMESPACE, f"{customer_id}:{subject}")
    ticket = await tools.create_ticket(customer_id=customer_id, subject=f"{subject} [{str(key)[:8]}]")
    tickets.append({"ticket": ticket["id"], "key": str(key)})

return tickets

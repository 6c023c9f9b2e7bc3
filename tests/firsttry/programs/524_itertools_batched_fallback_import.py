# description: Notify customers in batches of two, using itertools.batched when the Python has it and a fallback otherwise
# value: {"receipts": ["ntf-1", "ntf-2", "ntf-3", "ntf-4", "ntf-5", "ntf-6"], "sizes": [2, 2, 1], "batches": 2}
from itertools import islice

try:
    from itertools import batched
except ImportError:
    def batched(iterable, n):
        it = iter(iterable)
        while chunk := tuple(islice(it, n)):
            yield chunk

customers = await tools.list_customers()
receipts = []
for batch in batched(customers, 2):
    names = ", ".join(c["name"].split()[0] for c in batch)
    for c in batch:
        r = await tools.send_notification(to=c["email"], message=f"Batch with {names}")
        receipts.append(r["id"])
sizes = [len(b) for b in batched(range(5), 2)]
return {"receipts": receipts, "sizes": sizes, "batches": len(list(batched(customers, 4)))}

# description: Batch notifications inside a custom async context manager
# value: {"receipts": ["ntf-1", "ntf-2"], "aborted": true, "other_sent": []}
# logs: ["batch open", "batch sent 2", "batch open", "batch aborted: changed my mind"]
class NotificationBatch:
    def __init__(self, channel="email"):
        self.channel = channel
        self.pending = []
        self.receipts = []

    async def __aenter__(self):
        print("batch open")
        return self

    def add(self, to, message):
        self.pending.append((to, message))

    async def __aexit__(self, exc_type, exc, tb):
        if exc_type is not None:
            print(f"batch aborted: {exc}")
            return False
        for to, message in self.pending:
            r = await tools.send_notification(to=to, message=message, channel=self.channel)
            self.receipts.append(r["id"])
        print(f"batch sent {len(self.receipts)}")
        return False

customers = await tools.list_customers(tier="pro")
async with NotificationBatch() as batch:
    for c in customers:
        batch.add(c["email"], f"Hi {c['name'].split()[0]}, thanks for being pro!")

aborted = False
try:
    async with NotificationBatch() as other:
        other.add("x@example.com", "never sent")
        raise RuntimeError("changed my mind")
except RuntimeError:
    aborted = True
return {"receipts": batch.receipts, "aborted": aborted, "other_sent": other.receipts}

# description: A callable rate limiter object with container protocol methods
# value: {"was_empty": true, "count": 6, "has_ada": true, "sorted": ["ada@example.com", "alan@example.com", "edsger@example.com"], "last": "margaret@example.com", "slice": ["grace@example.com", "alan@example.com"], "callable": true, "hex": ["0xff", 255, 12, 3, 256, "AB"]}
import asyncio

class RateLimiter:
    def __init__(self, per_batch: int):
        self.per_batch = per_batch
        self.sent: list[str] = []

    def __call__(self, items):
        for i in range(0, len(items), self.per_batch):
            yield items[i:i + self.per_batch]

    def __len__(self):
        return len(self.sent)

    def __contains__(self, email):
        return email in self.sent

    def __iter__(self):
        yield from sorted(self.sent)

    def __bool__(self):
        return bool(self.sent)

    def __getitem__(self, index):
        return self.sent[index]

limiter = RateLimiter(per_batch=2)
was_empty = not limiter
customers = await tools.list_customers()
for batch in limiter([c["email"] for c in customers]):
    await asyncio.gather(*(tools.send_notification(to=e, message="Service update") for e in batch))
    limiter.sent.extend(batch)
return {
    "was_empty": was_empty,
    "count": len(limiter),
    "has_ada": "ada@example.com" in limiter,
    "sorted": list(limiter)[:3],
    "last": limiter[-1],
    "slice": limiter[1:3],
    "callable": callable(limiter),
    "hex": [hex(255), int("ff", 16), (0b1010 ^ 0b0110), (5).bit_length(), int.from_bytes(b"\x01\x00", "big"), bytes.fromhex("4142").decode()],
}

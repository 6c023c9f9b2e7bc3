# description: Throttle notification sends through an async context-manager rate limiter and log what happened
# value: {"sent": ["ntf-1", "ntf-2", "ntf-3"], "failures": ["tool \"send_notification\" raised ValueError: 'nobody' is not an email address", "tool \"send_notification\" raised ValueError: message is empty"], "throttled": true, "plausible_time": true}
# logs: ["<RateLimiter 3/0.05s>"]
import asyncio
import time

class RateLimiter:
    def __init__(self, per_window: int, window: float):
        self.per_window = per_window
        self.window = window
        self._stamps: list[float] = []
        self.waits = 0

    async def __aenter__(self):
        while True:
            now = time.monotonic()
            self._stamps = [t for t in self._stamps if now - t < self.window]
            if len(self._stamps) < self.per_window:
                self._stamps.append(now)
                return self
            self.waits += 1
            await asyncio.sleep(self.window - (now - self._stamps[0]) + 0.001)

    async def __aexit__(self, exc_type, exc, tb):
        return False

    def __repr__(self):
        return f"<RateLimiter {self.per_window}/{self.window}s waits={self.waits}>"

limiter = RateLimiter(per_window=3, window=0.05)
vip = [c for c in await tools.list_customers() if "vip" in c["tags"]]
receipts, failures = [], []
targets = [(c["email"], f"Hello {c['name'].split()[0]}, thanks for being a VIP.") for c in vip]
targets += [("nobody", "hi"), (vip[0]["email"], "   ")]
started = time.monotonic()
for to, msg in targets:
    try:
        async with limiter:
            receipts.append(await tools.send_notification(to=to, message=msg))
    except ToolCallError as e:
        failures.append(str(e))
elapsed = time.monotonic() - started
print(repr(limiter).split(" waits")[0] + ">")
return {"sent": [r["id"] for r in receipts], "failures": failures, "throttled": limiter.waits > 0,
        "plausible_time": elapsed >= 0.04}

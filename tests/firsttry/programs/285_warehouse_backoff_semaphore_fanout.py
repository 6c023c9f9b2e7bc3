# description: Check warehouse stock for the whole catalogue with bounded concurrency and exponential backoff
# value: {"ok": 7, "failed": {"XX-00": "LookupError"}, "attempts": {"CB-05": 1, "HD-10": 1, "HS-07": 1, "KB-01": 2, "LP-14": 3, "MN-27": 3, "MS-02": 1, "XX-00": 3}, "total_units": 194}
# logs: ["SKU       N    S  TOTAL TRIES", "CB-05    60   60    120     1", "HD-10    21   21     42     1", "KB-01     7    7     14     2", "HS-07     4    5      9     1", "MN-27     3    3      6     3", "LP-14     1    2      3     3", "MS-02     0    0      0     1"]
import asyncio
import random

rng = random.Random(42)
sem = asyncio.Semaphore(3)
attempt_log: dict[str, int] = {}

async def with_backoff(sku: str, *, retries: int = 4, base: float = 0.002) -> dict:
    for attempt in range(retries + 1):
        try:
            async with sem:
                result = await tools.warehouse_stock(sku=sku)
            attempt_log[sku] = attempt + 1
            return result
        except ToolCallError as exc:
            if exc.type != "TimeoutError" or attempt == retries:
                attempt_log[sku] = attempt + 1
                raise
            wait = base * (2 ** attempt) * (1 + rng.random() / 10)
            await asyncio.sleep(wait)
    raise AssertionError("no attempts made")

products = await tools.list_products()
skus = [p["sku"] for p in products] + ["XX-00"]
results = await asyncio.gather(*(with_backoff(s) for s in skus), return_exceptions=True)

rows = []
failures = {}
for sku, res in zip(skus, results):
    if isinstance(res, Exception):
        failures[sku] = getattr(res, "type", None) or type(res).__name__
        continue
    rows.append((sku, res["north"], res["south"], res["north"] + res["south"]))

rows.sort(key=lambda r: (-r[3], r[0]))
print(f"{'SKU':<6} {'N':>4} {'S':>4} {'TOTAL':>6} {'TRIES':>5}")
for sku, n, s, t in rows:
    print(f"{sku:<6} {n:>4d} {s:>4d} {t:>6d} {attempt_log[sku]:>5}")
return {
    "ok": len(rows),
    "failed": failures,
    "attempts": dict(sorted(attempt_log.items())),
    "total_units": sum(r[3] for r in rows),
}

# description: Fetch warehouse stock for every SKU concurrently, retrying timeouts with exponential backoff
# value: {"ok": {"KB-01": {"total": 14, "attempts": 2}, "MS-02": {"total": 0, "attempts": 1}, "MN-27": {"total": 6, "attempts": 3}, "HD-10": {"total": 42, "attempts": 1}, "CB-05": {"total": 120, "attempts": 1}, "LP-14": {"total": 3, "attempts": 3}, "HS-07": {"total": 9, "attempts": 1}}, "failed": {"ZZ-00": "tool:LookupError", "QQ-11": "tool:LookupError"}, "retried": ["KB-01", "LP-14", "MN-27"], "causes": []}
# logs: ["KB-01    14 (attempt 2)", "MS-02     0 (attempt 1)", "MN-27     6 (attempt 3)", "HD-10    42 (attempt 1)", "CB-05   120 (attempt 1)", "LP-14     3 (attempt 3)", "HS-07     9 (attempt 1)", "failed: {'ZZ-00': 'tool:LookupError', 'QQ-11': 'tool:LookupError'}"]
import asyncio
import random


class RetryExhausted(Exception):
    def __init__(self, sku: str, attempts: int, last: Exception):
        super().__init__(f"{sku}: gave up after {attempts} attempts ({last})")
        self.sku = sku
        self.attempts = attempts


async def with_retry(sku: str, *, attempts: int = 3, base: float = 0.001):
    rng = random.Random(sku)
    for attempt in range(1, attempts + 1):
        try:
            return sku, attempt, await tools.warehouse_stock(sku=sku)
        except ToolCallError as e:
            if e.type != "TimeoutError":
                raise
            if attempt == attempts:
                raise RetryExhausted(sku, attempt, e) from e
            await asyncio.sleep(base * 2 ** (attempt - 1) * (1 + rng.random()))


products = await tools.list_products()
skus = [p["sku"] for p in products] + ["ZZ-00", "QQ-11"]
results = await asyncio.gather(*(with_retry(s) for s in skus), return_exceptions=True)

ok, failed = {}, {}
for sku, r in zip(skus, results):
    match r:
        case (_, attempt, {"north": n, "south": s}):
            ok[sku] = {"total": n + s, "attempts": attempt}
        case RetryExhausted(attempts=a):
            failed[sku] = f"exhausted:{a}"
        case ToolCallError(type=t):
            failed[sku] = f"tool:{t}"
        case BaseException() as other:
            failed[sku] = f"other:{type(other).__name__}"

for sku, info in ok.items():
    print(f"{sku:<6} {info['total']:>4} (attempt {info['attempts']})")
print("failed:", failed)
return {
    "ok": ok,
    "failed": failed,
    "retried": sorted(s for s, i in ok.items() if i["attempts"] > 1),
    "causes": [type(r.__cause__).__name__ for r in results if isinstance(r, RetryExhausted)],
}

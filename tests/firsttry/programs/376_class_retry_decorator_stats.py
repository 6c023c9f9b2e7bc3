# description: Retry flaky warehouse lookups with a class-based async decorator that keeps statistics
# value: {"found": {"KB-01": 14, "MS-02": 0, "HD-10": 42, "CB-05": 120, "HS-07": 9}, "failed": {"MN-27": "TimeoutError", "LP-14": "TimeoutError"}, "stats": "retry(calls=7, retries=3, failures=2)", "doc": "Total stock of a SKU over both warehouses.", "name": "stock"}
# logs: ["retry(calls=7, retries=3, failures=2)"]
import asyncio
import functools


class retry:
    """Retry an async function on the given exception types."""

    def __init__(self, *, attempts: int = 3, on: tuple = (Exception,), delay: float = 0.0) -> None:
        self.attempts = attempts
        self.on = on
        self.delay = delay
        self.calls = 0
        self.retries = 0
        self.failures = 0

    def __call__(self, fn):
        @functools.wraps(fn)
        async def wrapper(*args, **kwargs):
            self.calls += 1
            for attempt in range(1, self.attempts + 1):
                try:
                    return await fn(*args, **kwargs)
                except self.on as e:
                    if attempt == self.attempts or not self.should_retry(e):
                        self.failures += 1
                        raise
                    self.retries += 1
                    await asyncio.sleep(self.delay * attempt)
        return wrapper

    @staticmethod
    def should_retry(e: Exception) -> bool:
        return getattr(e, "type", None) == "TimeoutError"

    def __repr__(self) -> str:
        return f"retry(calls={self.calls}, retries={self.retries}, failures={self.failures})"


policy = retry(attempts=2, on=(ToolCallError,), delay=0.001)


@policy
async def stock(sku: str) -> int:
    """Total stock of a SKU over both warehouses."""
    s = await tools.warehouse_stock(sku=sku)
    return s["north"] + s["south"]


found, failed = {}, {}
for p in await tools.list_products():
    try:
        found[p["sku"]] = await stock(p["sku"])
    except ToolCallError as e:
        failed[p["sku"]] = e.type
print(policy)
return {"found": found, "failed": failed, "stats": repr(policy), "doc": stock.__doc__, "name": stock.__name__}

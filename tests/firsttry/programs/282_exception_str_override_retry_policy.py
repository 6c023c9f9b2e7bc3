# description: Fetch warehouse stock with a retry policy and structured errors that explain themselves
# value: {"results": {"KB-01": 14, "MN-27": {"error": "RetriesExhausted", "message": "MN-27: gave up after 2 attempts (tool \"warehouse_stock\" raised TimeoutError: warehouse service timed out for MN-27 (attempt 2))", "args": ["MN-27", 2], "is_lookup": false, "has_cause": true}, "HS-07": 9, "ZZ-99": {"error": "UnknownSku", "message": "unknown SKU 'ZZ-99'", "args": ["ZZ-99"], "is_lookup": true, "has_cause": false}, "CB-05": 120}, "log": ["KB-01#1 TimeoutError", "KB-01#2 ok", "MN-27#1 TimeoutError", "MN-27#2 TimeoutError", "HS-07#1 ok", "ZZ-99#1 LookupError", "CB-05#1 ok"]}
import asyncio
from dataclasses import dataclass, field

class StockError(Exception):
    """Base class for stock lookups."""

class RetriesExhausted(StockError):
    def __init__(self, sku: str, attempts: int, last: Exception) -> None:
        super().__init__(sku, attempts)
        self.sku = sku
        self.attempts = attempts
        self.last = last

    def __str__(self) -> str:
        return f"{self.sku}: gave up after {self.attempts} attempts ({self.last})"

class UnknownSku(StockError, LookupError):
    def __str__(self) -> str:
        return f"unknown SKU {self.args[0]!r}"

@dataclass(frozen=True)
class RetryPolicy:
    attempts: int = 3
    base_delay: float = 0.001
    factor: float = 2.0
    retry_on: frozenset[str] = field(default_factory=lambda: frozenset({"TimeoutError"}))

    def delays(self):
        delay = self.base_delay
        for _ in range(self.attempts - 1):
            yield delay
            delay *= self.factor

async def stock(sku: str, policy: RetryPolicy, log: list[str]) -> int:
    delays = policy.delays()
    attempt = 0
    while True:
        attempt += 1
        try:
            s = await tools.warehouse_stock(sku=sku)
            log.append(f"{sku}#{attempt} ok")
            return s["north"] + s["south"]
        except ToolCallError as e:
            log.append(f"{sku}#{attempt} {e.type}")
            if e.type == "LookupError":
                raise UnknownSku(sku) from None
            if e.type not in policy.retry_on or (delay := next(delays, None)) is None:
                raise RetriesExhausted(sku, attempt, e) from e
            await asyncio.sleep(delay)

results = {}
log: list[str] = []
for sku, policy in [("KB-01", RetryPolicy()), ("MN-27", RetryPolicy(attempts=2)), ("HS-07", RetryPolicy(attempts=1)),
                    ("ZZ-99", RetryPolicy(attempts=5)), ("CB-05", RetryPolicy())]:
    try:
        results[sku] = await stock(sku, policy, log)
    except StockError as e:
        results[sku] = {"error": type(e).__name__, "message": str(e), "args": list(e.args),
                        "is_lookup": isinstance(e, LookupError), "has_cause": e.__cause__ is not None}
return {"results": results, "log": log}

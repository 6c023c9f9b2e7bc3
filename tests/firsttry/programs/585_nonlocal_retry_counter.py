# description: Retry the flaky warehouse with a closure that counts attempts through nonlocal
# value: {"stock": {"KB-01": 14, "MN-27": 6, "HS-07": 9}, "attempts": 6, "failures": 3}
import asyncio

def make_fetcher(max_attempts: int = 4):
    attempts = 0
    failures = 0

    async def fetch(sku: str):
        nonlocal attempts, failures
        for attempt in range(1, max_attempts + 1):
            attempts += 1
            try:
                return await tools.warehouse_stock(sku=sku)
            except ToolCallError as e:
                if e.type != "TimeoutError":
                    raise
                failures += 1
                await asyncio.sleep(0.01 * 2 ** attempt)
        raise RuntimeError(f"gave up on {sku}")

    def stats():
        return {"attempts": attempts, "failures": failures}

    return fetch, stats

fetch, stats = make_fetcher()
stock = {}
for sku in ["KB-01", "MN-27", "HS-07"]:
    s = await fetch(sku)
    stock[sku] = s["north"] + s["south"]
return {"stock": stock, **stats()}

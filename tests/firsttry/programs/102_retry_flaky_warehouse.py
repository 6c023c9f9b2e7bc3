# description: Query the flaky warehouse service with retries
# value: {"KB-01": {"total": 14, "tries": 2}, "MN-27": {"total": 6, "tries": 3}, "HS-07": {"total": 9, "tries": 1}, "CB-05": {"total": 120, "tries": 1}, "ZZ-99": {"error": "LookupError"}}
# logs: ["KB-01: attempt 1 failed, retrying", "MN-27: attempt 1 failed, retrying", "MN-27: attempt 2 failed, retrying"]
import asyncio

async def with_retry(sku: str, attempts: int = 4):
    last_error = None
    for attempt in range(1, attempts + 1):
        try:
            result = await tools.warehouse_stock(sku=sku)
            return result, attempt
        except ToolCallError as e:
            if e.type != "TimeoutError":
                raise
            last_error = e
            print(f"{sku}: attempt {attempt} failed, retrying")
            await asyncio.sleep(0.01 * attempt)
    raise RuntimeError(f"gave up on {sku}") from last_error

report = {}
for sku in ["KB-01", "MN-27", "HS-07", "CB-05"]:
    stock, tries = await with_retry(sku)
    report[sku] = {"total": stock["north"] + stock["south"], "tries": tries}

try:
    await with_retry("ZZ-99")
except ToolCallError as e:
    report["ZZ-99"] = {"error": e.type}
return report

# description: Retry the flaky warehouse with exponential backoff and seeded jitter via asyncio.sleep, recording each attempt
# value: {"KB-01": {"total": 14, "tries": 2, "delays": [1.064]}, "MS-02": {"total": 0, "tries": 1, "delays": []}, "MN-27": {"total": 6, "tries": 3, "delays": [1.003, 2.055]}, "HD-10": {"total": 42, "tries": 1, "delays": []}, "ZZ-99": {"error": "LookupError", "message": "tool \"warehouse_stock\" raised LookupError: unknown sku 'ZZ-99'"}}
import asyncio
import random

rng = random.Random(42)

async def with_retries(fn, *, attempts=4, base=0.001, **kwargs):
    delays = []
    for attempt in range(1, attempts + 1):
        try:
            return await fn(**kwargs), attempt, delays
        except ToolCallError as exc:
            if exc.type != "TimeoutError" or attempt == attempts:
                raise
            delay = base * 2 ** (attempt - 1) * (1 + rng.random() / 10)
            delays.append(round(delay / base, 3))
            await asyncio.sleep(delay)

report = {}
for sku in ["KB-01", "MS-02", "MN-27", "HD-10", "ZZ-99"]:
    try:
        stock, tries, delays = await with_retries(tools.warehouse_stock, sku=sku)
        report[sku] = {"total": stock["north"] + stock["south"], "tries": tries, "delays": delays}
    except ToolCallError as exc:
        report[sku] = {"error": exc.type, "message": str(exc)}
return report

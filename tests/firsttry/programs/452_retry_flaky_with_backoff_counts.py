# description: Read every SKU from the flaky warehouse with up to 3 attempts each, counting retries
# value: {"KB-01": {"total": 14, "attempts": 2}, "MS-02": {"total": 0, "attempts": 1}, "MN-27": {"total": 6, "attempts": 3}, "HD-10": {"total": 42, "attempts": 1}, "CB-05": {"total": 120, "attempts": 1}, "LP-14": {"total": 3, "attempts": 3}, "HS-07": {"total": 9, "attempts": 1}}
import asyncio

async def with_retries(sku, attempts=3):
    for attempt in range(1, attempts + 1):
        try:
            stock = await tools.warehouse_stock(sku=sku)
            return stock, attempt
        except ToolCallError as err:
            if err.type == "TimeoutError" and attempt < attempts:
                await asyncio.sleep(0.01 * attempt)
                continue
            raise

products = await tools.list_products()
results = await asyncio.gather(*(with_retries(p["sku"]) for p in products))
return {stock["sku"]: {"total": stock["north"] + stock["south"], "attempts": n} for stock, n in results}

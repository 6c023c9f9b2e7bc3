# description: A retry decorator for async tool wrappers
# value: {"name": "stock_of", "doc": "Total stock across warehouses.", "stock": {"KB-01": 14, "MS-02": 0, "MN-27": 6, "HD-10": 42, "CB-05": 120, "LP-14": 3, "HS-07": 9}, "empty": ["MS-02"]}
import asyncio
import functools

def retry(times: int = 3, on: tuple[str, ...] = ("TimeoutError",)):
    def decorator(fn):
        @functools.wraps(fn)
        async def wrapper(*args, **kwargs):
            for i in range(times):
                try:
                    return await fn(*args, **kwargs)
                except ToolCallError as err:
                    if err.type not in on or i == times - 1:
                        raise
                    await asyncio.sleep(0)
        return wrapper
    return decorator

@retry(times=3)
async def stock_of(sku):
    """Total stock across warehouses."""
    s = await tools.warehouse_stock(sku=sku)
    return s["north"] + s["south"]

products = await tools.list_products()
totals = await asyncio.gather(*(stock_of(p["sku"]) for p in products))
by_sku = dict(zip((p["sku"] for p in products), totals))
return {"name": stock_of.__name__, "doc": stock_of.__doc__, "stock": by_sku, "empty": [k for k, v in by_sku.items() if not v]}

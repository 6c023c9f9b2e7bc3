# description: Wrap flaky tool calls in a configurable retry decorator and report attempts per SKU
# value: {"stock": {"KB-01": 14, "MN-27": "failed: TimeoutError", "HS-07": 9, "NOPE": "failed: LookupError"}, "stats": [["KB-01", 2, "ok"], ["MN-27", 2, "exhausted"], ["HS-07", 1, "ok"], ["NOPE", 1, "LookupError"]], "name": "stock_of"}
# logs: ["stock_of - Total units across both warehouses."]
# limitation: attributes set on a function (`wrapper.stats = []` in a decorator) are refused in run_code
import asyncio
import functools

def retry(times: int = 3, *, on: tuple[str, ...] = ("TimeoutError",), delay: float = 0.001):
    def decorator(fn):
        @functools.wraps(fn)
        async def wrapper(*args, **kwargs):
            last = None
            for attempt in range(1, times + 1):
                try:
                    result = await fn(*args, **kwargs)
                    wrapper.stats.append((args[0] if args else None, attempt, "ok"))
                    return result
                except ToolCallError as e:
                    last = e
                    if e.type not in on:
                        wrapper.stats.append((args[0] if args else None, attempt, e.type))
                        raise
                    await asyncio.sleep(delay * attempt)
            wrapper.stats.append((args[0] if args else None, times, "exhausted"))
            raise last
        wrapper.stats = []
        return wrapper
    return decorator

@retry(times=2)
async def stock_of(sku: str) -> int:
    """Total units across both warehouses."""
    s = await tools.warehouse_stock(sku=sku)
    return s["north"] + s["south"]

out = {}
for sku in ["KB-01", "MN-27", "HS-07", "NOPE"]:
    try:
        out[sku] = await stock_of(sku)
    except ToolCallError as e:
        out[sku] = f"failed: {e.type}"

print(stock_of.__name__, "-", stock_of.__doc__)
return {"stock": out, "stats": [list(s) for s in stock_of.stats], "name": stock_of.__name__}

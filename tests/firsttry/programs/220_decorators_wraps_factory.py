# description: Add logging, retry and caching behaviour to async helpers with decorators built on functools.wraps
# value: {"totals": {"KB-01": 14, "MN-27": 6, "HS-07": 9}, "names": ["Ada Lovelace", "Grace Hopper", "Ada Lovelace"], "calls": [">> stock('KB-01',)", "retry 1", ">> stock('MN-27',)", "retry 1", "retry 2", ">> stock('HS-07',)"], "meta": ["stock", "Warehouse stock, north + south.", "double_sum", "Doubles the sum."], "wrapped": 3, "result": 6}
# limitation: reading a wrapped function's __wrapped__ is refused as a dunder read
import functools
import asyncio

calls = []


def logged(prefix):
    def deco(fn):
        @functools.wraps(fn)
        async def wrapper(*args, **kwargs):
            calls.append(f"{prefix}{fn.__name__}{args}")
            return await fn(*args, **kwargs)
        return wrapper
    return deco


def retry(times=3, on=(ToolCallError,)):
    def deco(fn):
        @functools.wraps(fn)
        async def wrapper(*args, **kwargs):
            for attempt in range(1, times + 1):
                try:
                    return await fn(*args, **kwargs)
                except on as e:
                    if attempt == times or getattr(e, "type", None) != "TimeoutError":
                        raise
                    calls.append(f"retry {attempt}")
        return wrapper
    return deco


def memo(fn):
    cache = {}

    @functools.wraps(fn)
    async def wrapper(key):
        if key not in cache:
            cache[key] = await fn(key)
        return cache[key]
    return wrapper


@logged(">> ")
@retry(times=4)
async def stock(sku):
    """Warehouse stock, north + south."""
    s = await tools.warehouse_stock(sku=sku)
    return s["north"] + s["south"]


@memo
async def customer_name(cid):
    return (await tools.get_customer(customer_id=cid))["name"]


def timer_sync(fn):
    @functools.wraps(fn)
    def inner(*a):
        return fn(*a) * 2
    return inner


@timer_sync
def double_sum(a, b):
    "Doubles the sum."
    return a + b


totals = {sku: await stock(sku) for sku in ("KB-01", "MN-27", "HS-07")}
names = [await customer_name(c) for c in ("c1", "c2", "c1")]
return {"totals": totals, "names": names, "calls": calls, "meta": [stock.__name__, stock.__doc__, double_sum.__name__, double_sum.__doc__],
        "wrapped": double_sum.__wrapped__(1, 2), "result": double_sum(1, 2)}

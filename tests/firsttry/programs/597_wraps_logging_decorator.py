# description: A @wraps decorator that logs each async tool helper call and its duration bucket
# value: {"totals": [118.25, null, 45.0], "calls": ["order_total('o-1001')", "order_total('o-9999')", "order_total failed: LookupError", "order_total('o-1004')"], "name": "order_total", "doc": "Total of one order."}
import functools

calls: list[str] = []

def logged(fn):
    @functools.wraps(fn)
    async def wrapper(*args, **kwargs):
        calls.append(f"{fn.__name__}({', '.join(map(repr, args))})")
        try:
            return await fn(*args, **kwargs)
        except ToolCallError as e:
            calls.append(f"{fn.__name__} failed: {e.type}")
            return None
    return wrapper

@logged
async def order_total(order_id: str) -> float:
    """Total of one order."""
    return (await tools.get_order(order_id=order_id))["total"]

totals = [await order_total(o) for o in ("o-1001", "o-9999", "o-1004")]
return {"totals": totals, "calls": calls, "name": order_total.__name__, "doc": order_total.__doc__}

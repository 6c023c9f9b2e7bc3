# description: Cancel several orders concurrently and sort the failures with ExceptionGroup split
# value: {"cancelled": ["o-1003", "o-1008"], "total": 3, "tool": ["tool \"cancel_order\" raised LookupError: no order with id 'o-9999'", "tool \"cancel_order\" raised ValueError: order o-1004 is delivered and cannot be cancelled"], "other": ["Skipped"], "lookups": 1, "message": "some cancellations failed", "star_value": ["a"], "star_key": "KeyError('b')"}
import asyncio

class Skipped(Exception):
    pass

async def cancel(oid):
    if oid.endswith("0"):
        raise Skipped(f"{oid} is on hold")
    return await tools.cancel_order(order_id=oid)

ids = ["o-1003", "o-1004", "o-1010", "o-9999", "o-1008"]
results = await asyncio.gather(*(cancel(oid) for oid in ids), return_exceptions=True)
errors = [r for r in results if isinstance(r, Exception)]
cancelled = [r["order_id"] for r in results if isinstance(r, dict)]
summary = {"cancelled": cancelled}
try:
    if errors:
        raise ExceptionGroup("some cancellations failed", errors)
except ExceptionGroup as eg:
    tool_errors, other = eg.split(ToolCallError)
    lookups = eg.subgroup(lambda e: isinstance(e, ToolCallError) and e.type == "LookupError")
    summary.update({
        "total": len(eg.exceptions),
        "tool": sorted(str(e) for e in tool_errors.exceptions),
        "other": [type(e).__name__ for e in other.exceptions] if other else [],
        "lookups": len(lookups.exceptions) if lookups else 0,
        "message": eg.message,
    })
try:
    raise ExceptionGroup("batch", [ValueError("a"), KeyError("b")])
except* ValueError as g:
    summary["star_value"] = [str(e) for e in g.exceptions]
except* KeyError as g:
    summary["star_key"] = repr(g.exceptions[0])
return summary

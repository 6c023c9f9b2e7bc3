# description: Look up a batch of order ids concurrently and triage failures with gather(return_exceptions=True)
# value: {"found": {"o-1001": {"status": "delivered", "total": 118.25}, "o-1005": {"status": "pending", "total": 70.5}, "o-1009": {"status": "shipped", "total": 447.0}}, "missing": [["o-9999", "get_order"], ["bad", "get_order"]], "other": [], "cancel": {"o-1001": "tool \"cancel_order\" raised ValueError: order o-1001 is delivered and cannot be cancelled", "o-1005": "cancelled", "o-1009": "tool \"cancel_order\" raised ValueError: order o-1009 is shipped and cannot be cancelled"}}
import asyncio

ids = ["o-1001", "o-9999", "o-1005", "bad", "o-1009"]
results = await asyncio.gather(*(tools.get_order(order_id=i) for i in ids), return_exceptions=True)
found, missing, other = {}, [], []
for oid, r in zip(ids, results):
    match r:
        case ToolCallError(type="LookupError") as e:
            missing.append((oid, e.tool_name))
        case BaseException() as e:
            other.append((oid, type(e).__name__))
        case {"status": status, "total": total}:
            found[oid] = {"status": status, "total": total}

cancels = await asyncio.gather(*(tools.cancel_order(order_id=o) for o in found), return_exceptions=True)
cancel_report = {}
for oid, r in zip(found, cancels):
    cancel_report[oid] = r["status"] if not isinstance(r, Exception) else str(r)
return {"found": found, "missing": missing, "other": other, "cancel": cancel_report}

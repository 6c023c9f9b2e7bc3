# description: Fetch several orders, keeping both successes and failures
# value: {"ok": {"o-1001": "delivered", "o-1005": "pending", "o-1009": "shipped"}, "failed_ids": ["o-0000", "o-4040"], "first_failure_tool": "get_order"}
# logs: ["3 ok, 2 failed"]
import asyncio

ids = ["o-1001", "o-4040", "o-1005", "o-0000", "o-1009"]
results = await asyncio.gather(*(tools.get_order(order_id=i) for i in ids), return_exceptions=True)
ok, failed = {}, {}
for order_id, r in zip(ids, results):
    if isinstance(r, ToolCallError):
        failed[order_id] = {"tool": r.tool_name, "code": r.code}
    elif isinstance(r, Exception):
        failed[order_id] = {"other": type(r).__name__}
    else:
        ok[order_id] = r["status"]
print(f"{len(ok)} ok, {len(failed)} failed")
return {"ok": ok, "failed_ids": sorted(failed), "first_failure_tool": failed["o-4040"]["tool"]}

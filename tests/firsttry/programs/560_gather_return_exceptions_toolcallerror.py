# description: Look up several customers at once and separate failures by error type
# value: {"ok": {"c1": "London", "c4": "Hampton"}, "failed": {"c7": ["get_customer", "LookupError", null], "x": ["get_customer", "LookupError", null]}}
import asyncio
ids = ["c1", "c7", "c4", "x"]
results = await asyncio.gather(*(tools.get_customer(customer_id=i) for i in ids), return_exceptions=True)
ok, failed = {}, {}
for cid, r in zip(ids, results):
    if isinstance(r, ToolCallError):
        failed[cid] = [r.tool_name, r.type, r.code]
    else:
        ok[cid] = r["address"]["city"]
return {"ok": ok, "failed": failed}

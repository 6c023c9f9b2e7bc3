# description: Run several lookups and build an error report that includes formatted tracebacks
# value: [{"id": "o-1001", "ok": true, "total": 118.25}, {"id": "o-4040", "ok": false, "error": "ToolCallError: tool \"get_order\" raised LookupError: no order with id 'o-4040'"}, {"id": "o-1002", "ok": true, "total": 559.98}]
# logs: ["{'id': 'o-1001', 'ok': True, 'total': 118.25}", "{'id': 'o-4040', 'ok': False, 'error': 'ToolCallError: tool \"get_order\" raised LookupError: no order with id \\'o-4040\\''}", "{'id': 'o-1002', 'ok': True, 'total': 559.98}"]
# limitation: the traceback module is not available in run_code
import traceback

report = []
for oid in ("o-1001", "o-4040", "o-1002"):
    try:
        o = await tools.get_order(order_id=oid)
        report.append({"id": oid, "ok": True, "total": o["total"]})
    except ToolCallError as e:
        tb = traceback.format_exception_only(type(e), e)
        report.append({"id": oid, "ok": False, "error": tb[-1].strip()})

for r in report:
    print(r)
return report

# description: Load orders and explain failures
# value: [{"id": "o-1001", "status": "delivered"}, {"id": "o-9999", "error": "could not load o-9999", "cause": "ToolCallError", "tool": "get_order"}]
class OrderLookupFailed(RuntimeError):
    pass


async def load(order_id):
    try:
        return await tools.get_order(order_id=order_id)
    except ToolCallError as exc:
        raise OrderLookupFailed(f"could not load {order_id}") from exc


report = []
for oid in ["o-1001", "o-9999"]:
    try:
        order = await load(oid)
        report.append({"id": oid, "status": order["status"]})
    except OrderLookupFailed as err:
        cause = err.__cause__
        report.append({"id": oid, "error": str(err), "cause": type(cause).__name__,
                       "tool": cause.tool_name})

return report

# description: Validate orders with a custom exception hierarchy, raise from and add_note
# value: [{"id": "o-1003", "ok": true, "refund": 188.0}, {"id": "o-1002", "ok": false, "kind": "NotCancellable", "is_problem": true, "cause": "ToolCallError", "msg": "o-1002: cannot be cancelled"}, {"id": "o-9999", "ok": false, "kind": "UnknownOrder", "is_problem": true, "cause": "ToolCallError", "msg": "o-9999: does not exist"}]
class OrderProblem(Exception):
    def __init__(self, order_id, message):
        super().__init__(f"{order_id}: {message}")
        self.order_id = order_id

class NotCancellable(OrderProblem):
    pass

class UnknownOrder(OrderProblem):
    pass

async def cancel(order_id):
    try:
        return await tools.cancel_order(order_id=order_id, reason="duplicate")
    except ToolCallError as e:
        if e.type == "LookupError":
            raise UnknownOrder(order_id, "does not exist") from e
        err = NotCancellable(order_id, "cannot be cancelled")
        err.add_note(f"tool said: {e}")
        raise err from e

report = []
for oid in ["o-1003", "o-1002", "o-9999"]:
    try:
        result = await cancel(oid)
        report.append({"id": oid, "ok": True, "refund": result["refund"]})
    except OrderProblem as e:
        cause = e.__cause__
        report.append({
            "id": e.order_id,
            "ok": False,
            "kind": type(e).__name__,
            "is_problem": isinstance(e, OrderProblem),
            "cause": type(cause).__name__ if cause else None,
            "msg": str(e),
        })
return report

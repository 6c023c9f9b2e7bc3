# description: Wrap tool failures in a domain exception hierarchy with attributes, chaining and notes
# value: {"report": [{"order": "o-1003", "refund": 188.0}, {"order": "o-1003", "error": "cannot refund o-1003: already cancelled", "notes": ["tool said: tool \"cancel_order\" raised ValueError: order o-1003 is cancelled and cannot be cancelled"], "cause": null, "suppressed": true}, {"order": "o-1001", "error": "cannot refund o-1001: already delivered", "notes": ["tool said: tool \"cancel_order\" raised ValueError: order o-1001 is delivered and cannot be cancelled"], "cause": null, "suppressed": true}, {"order": "o-0000", "error": "unknown order o-0000", "cls": "UnknownOrder", "cause_type": "ToolCallError", "cause_tool": "cancel_order", "args": ["cannot refund o-0000: not found"], "retry": false}], "mro": ["UnknownOrder", "RefundError", "Exception", "BaseException"], "issub": true}
# limitation: reading an exception's __notes__ is refused as a dunder read
class RefundError(Exception):
    def __init__(self, order_id, reason, *, retryable=False):
        super().__init__(f"cannot refund {order_id}: {reason}")
        self.order_id = order_id
        self.reason = reason
        self.retryable = retryable


class NotRefundable(RefundError):
    pass


class UnknownOrder(RefundError):
    def __str__(self):
        return f"unknown order {self.order_id}"


async def refund(order_id):
    try:
        return await tools.cancel_order(order_id=order_id, reason="refund requested")
    except ToolCallError as e:
        if e.type == "LookupError":
            raise UnknownOrder(order_id, "not found") from e
        if e.type == "ValueError":
            err = NotRefundable(order_id, "already " + str(e).rsplit(" is ", 1)[-1].split()[0])
            err.add_note(f"tool said: {e}")
            raise err from None
        raise


report = []
for oid in ("o-1003", "o-1003", "o-1001", "o-0000"):
    try:
        r = await refund(oid)
        report.append({"order": oid, "refund": r["refund"]})
    except NotRefundable as e:
        report.append({"order": e.order_id, "error": str(e), "notes": e.__notes__, "cause": e.__cause__, "suppressed": e.__suppress_context__})
    except RefundError as e:
        report.append({"order": e.order_id, "error": str(e), "cls": type(e).__name__, "cause_type": type(e.__cause__).__name__,
                       "cause_tool": e.__cause__.tool_name, "args": list(e.args), "retry": e.retryable})
return {"report": report, "mro": [c.__name__ for c in UnknownOrder.mro()[:4]], "issub": issubclass(NotRefundable, Exception)}

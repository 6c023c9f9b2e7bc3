# description: Inspect a failed tool call: ToolCallError attributes, str, args, isinstance checks and re-raising with context
# value: {"info": {"tool": "get_order", "type": "LookupError", "code": null, "text": "tool \"get_order\" raised LookupError: no order with id 'o-9999'", "args0": true, "is_exception": true, "is_lookup": false, "name": "ToolCallError"}, "chained": {"msg": "could not load forecast", "cause_type": "ValueError", "same": true, "what": "forecast"}, "bad_args": {"code": "INVALID_ARGS", "type": null, "mentions_priority": true}}
class LookupFailed(Exception):
    def __init__(self, what, cause):
        super().__init__(f"could not load {what}")
        self.what = what
        self.cause = cause

info = {}
try:
    await tools.get_order(order_id="o-9999")
except ToolCallError as exc:
    info = {"tool": exc.tool_name, "type": exc.type, "code": exc.code, "text": str(exc),
            "args0": exc.args[0] == str(exc), "is_exception": isinstance(exc, Exception),
            "is_lookup": isinstance(exc, LookupError), "name": type(exc).__name__}
try:
    try:
        await tools.forecast(city="Paris", days=0)
    except ToolCallError as exc:
        raise LookupFailed("forecast", exc) from exc
except LookupFailed as wrapped:
    chained = {"msg": str(wrapped), "cause_type": wrapped.__cause__.type, "same": wrapped.cause is wrapped.__cause__,
               "what": wrapped.what}
try:
    await tools.create_ticket(customer_id="c1", subject="x", priority="urgent")
    bad_args = None
except ToolCallError as exc:
    bad_args = {"code": exc.code, "type": exc.type, "mentions_priority": "priority" in str(exc)}
return {"info": info, "chained": chained, "bad_args": bad_args}

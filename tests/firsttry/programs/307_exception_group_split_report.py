# description: Collect every failure from a bulk cancellation run and report them grouped by cause
# value: {"cancelled": ["o-1003", "o-1005", "o-1008"], "not_cancellable": ["o-1001 is delivered", "o-1002 is shipped", "o-1006 is cancelled"], "causes": ["ToolCallError", "ToolCallError", "ToolCallError"], "lookups": ["tool \"cancel_order\" raised LookupError: no order with id 'o-4040'"], "handled": [["state", ["o-1001", "o-1002", "o-1006"]], ["tool", ["LookupError"]]], "nested_values": "ExceptionGroup('outer', [ValueError('a'), ExceptionGroup('inner', [ValueError('c')])])", "message": "bulk cancel"}
# logs: ["cancelled 3, failed 4: bulk cancel (4 sub-exceptions)"]
import asyncio

class NotCancellable(Exception):
    def __init__(self, order_id, status):
        super().__init__(f"{order_id} is {status}")
        self.order_id = order_id

async def cancel(order_id: str):
    try:
        return await tools.cancel_order(order_id=order_id, reason="bulk cleanup")
    except ToolCallError as e:
        if e.type == "ValueError":
            order = await tools.get_order(order_id=order_id)
            raise NotCancellable(order_id, order["status"]) from e
        raise

ids = ["o-1003", "o-1001", "o-1005", "o-4040", "o-1002", "o-1006", "o-1008"]
results = await asyncio.gather(*(cancel(i) for i in ids), return_exceptions=True)
done = [r["order_id"] for r in results if isinstance(r, dict)]
errors = [r for r in results if isinstance(r, Exception)]

eg = ExceptionGroup("bulk cancel", errors)
not_cancellable, rest = eg.split(NotCancellable)
lookups = rest.subgroup(lambda e: isinstance(e, ToolCallError) and e.type == "LookupError") if rest else None

handled = []
try:
    raise eg
except* NotCancellable as g:
    handled.append(("state", sorted(e.order_id for e in g.exceptions)))
except* ToolCallError as g:
    handled.append(("tool", [e.code or e.type for e in g.exceptions]))

nested = ExceptionGroup("outer", [ValueError("a"), ExceptionGroup("inner", [KeyError("b"), ValueError("c")])])
values, _ = nested.split(ValueError)
print(f"cancelled {len(done)}, failed {len(errors)}: {eg}")
return {
    "cancelled": done,
    "not_cancellable": [str(e) for e in not_cancellable.exceptions],
    "causes": [type(e.__cause__).__name__ for e in not_cancellable.exceptions],
    "lookups": [str(e) for e in lookups.exceptions] if lookups else [],
    "handled": handled,
    "nested_values": repr(values),
    "message": eg.message,
}

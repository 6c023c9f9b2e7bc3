# description: Cancel a batch of orders, classifying failures with a custom exception hierarchy
# value: {"done": [["o-1003", 188.0], ["o-1005", 70.5]], "problems": [{"id": "o-1001", "kind": "not_cancellable", "text": "[not_cancellable] o-1001: order o-1001 is delivered and cannot be cancelled", "repr": "NotCancellable('o-1001', 'order o-1001 i", "cause_type": "ValueError"}, {"id": "o-9999", "kind": "unknown_order", "text": "[unknown_order] o-9999: No such order.", "is_lookup": true, "cause": "ToolCallError", "args": ["o-9999", ""]}, {"id": "o-1003", "kind": "not_cancellable", "text": "[not_cancellable] o-1003: order o-1003 is cancelled and cannot be cancelled", "repr": "NotCancellable('o-1003', 'order o-1003 i", "cause_type": "ValueError"}], "suppressed": [null, true, "KeyError"], "grouped": ["[unknown_order] b: No such order."], "others": ["not_cancellable"], "subclass": [true, false]}
# logs: ["[('o-1003', 188.0), ('o-1005', 70.5)]", "[not_cancellable] o-1001: order o-1001 is delivered and cannot be cancelled", "[unknown_order] o-9999: No such order.", "[not_cancellable] o-1003: order o-1003 is cancelled and cannot be cancelled"]
# limitation: reading an exception's __suppress_context__ is refused as a dunder read
class OrderActionError(Exception):
    """Base class for everything that can go wrong acting on an order."""

    code = "order_error"

    def __init__(self, order_id: str, message: str = "") -> None:
        super().__init__(order_id, message)
        self.order_id = order_id
        self.message = message or self.__class__.__doc__ or ""

    def __str__(self) -> str:
        return f"[{self.code}] {self.order_id}: {self.message}"


class NotCancellable(OrderActionError):
    """The order is past the point of cancelling."""

    code = "not_cancellable"


class UnknownOrder(OrderActionError, LookupError):
    """No such order."""

    code = "unknown_order"


async def cancel(order_id: str) -> dict:
    try:
        return await tools.cancel_order(order_id=order_id, reason="batch cleanup")
    except ToolCallError as e:
        if e.type == "LookupError":
            raise UnknownOrder(order_id) from e
        if e.type == "ValueError":
            raise NotCancellable(order_id, str(e).split(": ", 1)[-1]) from e
        raise


done, problems = [], []
for oid in ("o-1003", "o-1001", "o-9999", "o-1005", "o-1003"):
    try:
        c = await cancel(oid)
    except UnknownOrder as e:
        problems.append({"id": oid, "kind": e.code, "text": str(e), "is_lookup": isinstance(e, LookupError),
                         "cause": type(e.__cause__).__name__, "args": list(e.args)})
    except OrderActionError as e:
        problems.append({"id": oid, "kind": e.code, "text": str(e), "repr": repr(e)[:40],
                         "cause_type": getattr(e.__cause__, "type", None)})
    else:
        done.append((oid, c["refund"]))

try:
    try:
        {}["missing"]
    except KeyError:
        raise NotCancellable("o-0") from None
except NotCancellable as e:
    suppressed = (e.__cause__, e.__suppress_context__, type(e.__context__).__name__)

try:
    raise ExceptionGroup("batch", [NotCancellable("a"), UnknownOrder("b")])
except* LookupError as eg:
    grouped = [str(x) for x in eg.exceptions]
except* OrderActionError as eg:
    others = [x.code for x in eg.exceptions]

print(done)
for p in problems:
    print(p["text"])
return {
    "done": done,
    "problems": problems,
    "suppressed": [suppressed[0], suppressed[1], suppressed[2]],
    "grouped": grouped,
    "others": others,
    "subclass": [issubclass(UnknownOrder, LookupError), issubclass(NotCancellable, LookupError)],
}

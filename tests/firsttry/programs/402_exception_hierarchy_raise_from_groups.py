# description: Validate and cancel orders with a custom exception hierarchy, raise from, and except* over an ExceptionGroup
# value: {"problems": ["not-cancellable o-1002 (ToolCallError)", "unknown o-9999"], "refunds": {"o-1003": 188.0, "o-1010": 268.0, "o-1005": 70.5}, "split": [2, 1], "subclass": [true, false]}
import asyncio


class FulfilmentError(Exception):
    def __init__(self, order_id: str, message: str):
        super().__init__(f"{order_id}: {message}")
        self.order_id = order_id


class NotCancellable(FulfilmentError):
    pass


class UnknownOrder(FulfilmentError):
    pass


class Suspicious(FulfilmentError):
    severity = "high"


async def cancel(order_id: str) -> float:
    try:
        r = await tools.cancel_order(order_id=order_id, reason="bulk cleanup")
    except ToolCallError as e:
        if e.type == "LookupError":
            raise UnknownOrder(order_id, "no such order") from e
        raise NotCancellable(order_id, str(e)) from e
    if r["refund"] > 500:
        raise Suspicious(order_id, f"refund {r['refund']} too large")
    return r["refund"]


ids = ["o-1003", "o-1002", "o-9999", "o-1010", "o-1005"]
refunds: dict[str, float] = {}
problems: list[str] = []
outcomes = await asyncio.gather(*(cancel(i) for i in ids), return_exceptions=True)
errors = [o for o in outcomes if isinstance(o, Exception)]
refunds = {i: o for i, o in zip(ids, outcomes) if not isinstance(o, BaseException)}
try:
    if errors:
        raise ExceptionGroup("cancel batch", errors)
except* NotCancellable as eg:
    problems += sorted(f"not-cancellable {e.order_id} ({type(e.__cause__).__name__})" for e in eg.exceptions)
except* UnknownOrder as eg:
    problems += [f"unknown {e.order_id}" for e in eg.exceptions]
except* FulfilmentError as eg:
    problems += [f"{type(e).__name__.lower()} {e.order_id} sev={e.severity}" for e in eg.exceptions]

group = ExceptionGroup("batch", [ValueError("a"), KeyError("b"), ValueError("c")])
match, rest = group.split(ValueError)
return {
    "problems": problems,
    "refunds": refunds,
    "split": [len(match.exceptions), len(rest.exceptions)],
    "subclass": [issubclass(Suspicious, FulfilmentError), issubclass(UnknownOrder, LookupError)],
}

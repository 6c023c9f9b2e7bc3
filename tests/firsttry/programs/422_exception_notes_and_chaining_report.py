# description: Collect failures with add_note, exception chaining (raise from / __context__) and print a readable summary
# value: {"summary": {"c1": 866.23, "c4": 455.49}, "failures": [{"error": "[c5] no orders", "type": "DataError", "cause": null, "is_report_error": true}, {"error": "[c42] cannot list orders", "type": "DataError", "cause": "ToolCallError", "is_report_error": true}], "implicit": "KeyError", "suppressed": true, "doc": "Base error for the report."}
# logs: ["2 ok, 2 failed"]
class ReportError(Exception):
    """Base error for the report."""


class DataError(ReportError):
    def __init__(self, what: str, *, customer: str):
        super().__init__(what)
        self.customer = customer

    def __str__(self):
        return f"[{self.customer}] {self.args[0]}"


async def spend(cid: str) -> float:
    try:
        orders = await tools.list_orders(customer_id=cid)
    except ToolCallError as e:
        err = DataError("cannot list orders", customer=cid)
        err.add_note(f"tool said: {e}")
        raise err from e
    if not orders:
        raise DataError("no orders", customer=cid)
    return sum(o["total"] for o in orders)


summary = {}
failures = []
for cid in ["c1", "c5", "c42", "c4"]:
    try:
        summary[cid] = round(await spend(cid), 2)
    except DataError as e:
        failures.append({
            "error": str(e),
            "type": type(e).__name__,
            "cause": type(e.__cause__).__name__ if e.__cause__ else None,
            "is_report_error": isinstance(e, ReportError),
        })

try:
    try:
        {}["missing"]
    except KeyError:
        raise ValueError("while handling")
except ValueError as e:
    implicit = type(e.__context__).__name__

try:
    raise RuntimeError("outer") from None
except RuntimeError as e:
    suppressed = e.__cause__ is None

print(f"{len(summary)} ok, {len(failures)} failed")
return {"summary": summary, "failures": failures, "implicit": implicit, "suppressed": suppressed, "doc": ReportError.__doc__}

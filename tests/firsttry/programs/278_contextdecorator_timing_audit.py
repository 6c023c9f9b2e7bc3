# description: Audit each step of a refund review with a context manager that also works as a decorator
# limitation: contextlib.ContextDecorator is not in the contextlib facade
# value: {"audit": ["begin review o-1009", "begin score", "end score: ok", "end review o-1009: failed (KeyError)", "begin review o-1010", "begin score", "end score: ok", "end review o-1010: ok", "begin review o-1011", "begin score", "end score: ok", "end review o-1011: ok", "begin final", "end final: failed (ValueError)"], "refundable": [["o-1011", 39.0]], "closed": true, "final": "ledger mismatch"}
import contextlib
import time

audit: list[str] = []

class step(contextlib.ContextDecorator):
    def __init__(self, name: str) -> None:
        self.name = name

    def __enter__(self) -> "step":
        self.started = time.perf_counter()
        audit.append(f"begin {self.name}")
        return self

    def __exit__(self, exc_type, exc, tb) -> bool:
        elapsed = time.perf_counter() - self.started
        outcome = "ok" if exc is None else f"failed ({exc_type.__name__})"
        audit.append(f"end {self.name}: {outcome}")
        return isinstance(exc, KeyError)

class Ledger:
    def __init__(self) -> None:
        self.entries: list[tuple[str, float]] = []
        self.closed = False

    def close(self) -> None:
        self.closed = True

@step("score")
def risk_score(order: dict) -> int:
    return sum(l["quantity"] for l in order["lines"]) * (2 if order["total"] > 300 else 1)

orders = await tools.list_orders(customer_id="c6")
with contextlib.closing(Ledger()) as ledger:
    for o in orders:
        with step(f"review {o['id']}"):
            score = risk_score(o)
            if o["status"] == "delivered":
                ledger.entries.append((o["id"], o["total"]))
            if score > 4:
                raise KeyError(o["id"])
try:
    with step("final"):
        raise ValueError("ledger mismatch")
except ValueError as e:
    final = str(e)
return {"audit": audit, "refundable": ledger.entries, "closed": ledger.closed, "final": final}

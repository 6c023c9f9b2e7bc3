# description: Audit order cancellations inside class-based and contextlib context managers
# value: {"results": {"o-1003": ["CANCEL O-1003", 188.0], "o-1008": ["CANCEL O-1008", 97.5]}, "lines": 19}
# logs: ["> cancel o-1003", "< cancel o-1003 (ok)", "begin o-1003", "commit o-1003", "> cancel o-1002", "< cancel o-1002 (ok)", "begin o-1002", "abort o-1002: ToolCallError: tool \"cancel_order\" raised ValueError: order o-1002 is shipped and cannot be cancelled", "> cancel o-1008", "< cancel o-1008 (ok)", "begin o-1008", "commit o-1008", "> lookup", "! lookup missing 'b'", "< lookup (ok)", "caught KeyError outside", "stack closed", "commit batch0", "commit batch1"]
import contextlib
import time


class Audit:
    def __init__(self, name: str):
        self.name = name
        self.entries: list[str] = []
        self.failed = False

    def __enter__(self):
        self.entries.append(f"begin {self.name}")
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is not None:
            self.failed = True
            self.entries.append(f"abort {self.name}: {exc_type.__name__}: {exc}")
            return issubclass(exc_type, ToolCallError)
        self.entries.append(f"commit {self.name}")
        return False


@contextlib.contextmanager
def step(log: list, label: str):
    start = time.perf_counter()
    log.append(f"> {label}")
    try:
        yield label.upper()
    except KeyError as e:
        log.append(f"! {label} missing {e}")
        raise
    finally:
        elapsed = time.perf_counter() - start
        log.append(f"< {label} ({'ok' if elapsed >= 0 else 'clock'})")


log: list[str] = []
results = {}
for oid in ["o-1003", "o-1002", "o-1008"]:
    with Audit(oid) as audit:
        with step(log, f"cancel {oid}") as tag:
            r = await tools.cancel_order(order_id=oid, reason="stock issue")
            results[oid] = (tag, r["refund"])
    log.extend(audit.entries)

try:
    with step(log, "lookup"):
        {"a": 1}["b"]
except KeyError:
    log.append("caught KeyError outside")

with contextlib.suppress(ZeroDivisionError):
    1 / 0
    log.append("never")

with contextlib.ExitStack() as stack:
    audits = [stack.enter_context(Audit(f"batch{i}")) for i in range(2)]
    stack.callback(log.append, "stack closed")
log.extend(a.entries[-1] for a in audits)

for line in log:
    print(line)
return {"results": results, "lines": len(log)}

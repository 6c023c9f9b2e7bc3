# description: Run a batch of customer lookups inside nested context managers that time, suppress and clean up
# value: {"found": {"c1": "Ada Lovelace", "c2": "Grace Hopper"}, "names": ["S0", "S1"], "same": true, "escaped": "not a lookup error", "events": ["enter lookup", "tag LOOKUP", "lookup ok", "exit lookup", "enter missing", "missing handled ToolCallError", "exit missing", "begin t1", "commit t1 1", "begin t2", "rollback t2: invalid tag", "enter s0", "enter s1", "callback 2", "s1 ok", "exit s1", "s0 ok", "exit s0", "callback 1", "enter boom", "exit boom"]}
# logs: ["enter lookup", "tag LOOKUP", "lookup ok", "exit lookup", "enter missing", "missing handled ToolCallError", "exit missing", "begin t1", "commit t1 1", "begin t2", "rollback t2: invalid tag", "enter s0", "enter s1", "callback 2", "s1 ok", "exit s1", "s0 ok", "exit s0", "callback 1", "enter boom", "exit boom"]
import contextlib
from contextlib import ExitStack, contextmanager, nullcontext, suppress

events: list[str] = []


@contextmanager
def step(name: str):
    events.append(f"enter {name}")
    try:
        yield name.upper()
    except (LookupError, ToolCallError) as exc:
        events.append(f"{name} handled {type(exc).__name__}")
    else:
        events.append(f"{name} ok")
    finally:
        events.append(f"exit {name}")


class Transaction:
    def __init__(self, label: str) -> None:
        self.label = label
        self.ops: list[str] = []

    def __enter__(self):
        events.append(f"begin {self.label}")
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            events.append(f"commit {self.label} {len(self.ops)}")
            return False
        events.append(f"rollback {self.label}: {exc}")
        return issubclass(exc_type, ValueError)


found = {}
with step("lookup") as tag:
    for cid in ("c1", "c2"):
        found[cid] = (await tools.get_customer(customer_id=cid))["name"]
    events.append(f"tag {tag}")

with step("missing"):
    await tools.get_customer(customer_id="c42")
    events.append("never")

with suppress(KeyError, IndexError):
    found["x"] = {}["nope"]

with Transaction("t1") as tx:
    tx.ops.append("tag c1")
with Transaction("t2") as tx:
    tx.ops.append("bad")
    raise ValueError("invalid tag")

with ExitStack() as stack:
    stack.callback(events.append, "callback 1")
    names = [stack.enter_context(step(f"s{i}")) for i in range(2)]
    stack.callback(lambda: events.append("callback 2"))

maybe = nullcontext(found)
with maybe as same:
    same_is = same is found

try:
    with step("boom"):
        raise RuntimeError("not a lookup error")
except RuntimeError as e:
    escaped = str(e)

for e in events:
    print(e)
return {"found": found, "names": names, "same": same_is, "escaped": escaped, "events": events}

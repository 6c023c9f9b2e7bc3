# description: Audit a batch of notifications with contextmanager, ExitStack callbacks and suppress
# value: {"labels": ["C2", "C4"], "log": ["start c2", "start c4", "ok c4", "end c4", "ok c2", "end c2", "all done", "start bad", "failed bad: boom", "end bad", "answer 42", "never"]}
from contextlib import contextmanager, ExitStack, suppress, nullcontext

log = []

@contextmanager
def step(name):
    log.append(f"start {name}")
    try:
        yield name.upper()
    except ValueError as e:
        log.append(f"failed {name}: {e}")
        raise
    else:
        log.append(f"ok {name}")
    finally:
        log.append(f"end {name}")

customers = await tools.list_customers(tier="pro")
with ExitStack() as stack:
    stack.callback(log.append, "all done")
    labels = [stack.enter_context(step(c["id"])) for c in customers]
    for c in customers:
        await tools.send_notification(to=c["email"], message="Your plan renews soon")
with suppress(ValueError):
    with step("bad"):
        raise ValueError("boom")
with nullcontext(42) as answer:
    log.append(f"answer {answer}")
with ExitStack() as outer:
    outer.callback(log.append, "never")
    kept = outer.pop_all()
kept.close()
with suppress(KeyError, IndexError):
    {}["missing"]
return {"labels": labels, "log": log}

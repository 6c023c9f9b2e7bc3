# description: Run a multi-step customer health check with per-step bookkeeping and suppressed expected failures
# value: {"c2": {"tier": "pro", "open": 1, "region": "amer"}, "c5": {"tier": "free", "open": 0}, "c8": {"tier": null}}
# logs: ["## c2", "> profile", "< profile: ok", "> orders", "< orders: ok", "> region", "< region: ok", "## end c2 (6 entries)", "## c5", "> profile", "< profile: ok", "> orders", "< orders: ok", "> region", "< region: skipped (KeyError)", "## end c5 (6 entries)", "## c8", "> profile", "< profile: skipped (ToolCallError)", "## end c8 (2 entries)"]
from contextlib import contextmanager, suppress

class Step:
    def __init__(self, log: list, name: str, *, swallow: tuple = ()):
        self.log, self.name, self.swallow = log, name, swallow
        self.status = "pending"

    def __enter__(self):
        self.log.append(f"> {self.name}")
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            self.status = "ok"
        elif issubclass(exc_type, self.swallow):
            self.status = f"skipped ({exc_type.__name__})"
        else:
            self.status = "failed"
        self.log.append(f"< {self.name}: {self.status}")
        return exc_type is not None and issubclass(exc_type, self.swallow)

@contextmanager
def section(log: list, title: str):
    log.append(f"## {title}")
    depth = len(log)
    try:
        yield log
    except KeyError as e:
        log.append(f"missing key {e}")
    finally:
        log.append(f"## end {title} ({len(log) - depth} entries)")

log: list[str] = []
health = {}
for cid in ("c2", "c5", "c8"):
    with section(log, cid):
        with Step(log, "profile", swallow=(ToolCallError,)) as s1:
            customer = await tools.get_customer(customer_id=cid)
            health[cid] = {"tier": customer["tier"]}
        if s1.status != "ok":
            health[cid] = {"tier": None}
            continue
        with Step(log, "orders") as s2:
            orders = await tools.list_orders(customer_id=cid)
            health[cid]["open"] = sum(o["status"] in ("pending", "shipped") for o in orders)
        with Step(log, "region", swallow=(LookupError,)):
            health[cid]["region"] = {"US": "amer", "UK": "emea"}[customer["address"]["country"]]
        with suppress(KeyError):
            health[cid]["vip"] = "vip" in customer["tags"] or health[cid]["missing"]

for line in log:
    print(line)
return health

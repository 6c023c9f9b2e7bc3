# description: Batch tag updates inside a transaction-like context manager class that rolls back on error
# value: {"applied": {"c3": ["nurture"], "c5": ["nurture"]}, "good": ["begin good", "commit 2"], "bad": ["begin bad", "rollback ValueError: invalid tag 'not ok'"], "bad_pending": {}, "escaped": "KeyError('c2')", "boom": ["begin boom", "rollback KeyError: 'c2'"]}
class TagBatch:
    def __init__(self, name):
        self.name = name
        self.pending = {}
        self.log = []

    def __enter__(self):
        self.log.append(f"begin {self.name}")
        return self

    def add(self, customer_id, tag):
        if not tag.isidentifier():
            raise ValueError(f"invalid tag {tag!r}")
        self.pending.setdefault(customer_id, []).append(tag)

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            self.log.append(f"commit {sum(map(len, self.pending.values()))}")
            return False
        self.log.append(f"rollback {exc_type.__name__}: {exc}")
        self.pending.clear()
        return issubclass(exc_type, ValueError)  # swallow validation errors only


good = TagBatch("good")
with good as batch:
    for c in await tools.list_customers(tier="free"):
        batch.add(c["id"], "nurture")

bad = TagBatch("bad")
with bad:
    bad.add("c1", "ok_tag")
    bad.add("c1", "not ok")
    bad.add("c1", "never")

try:
    with TagBatch("boom") as boom:
        boom.add("c2", "x")
        raise KeyError("c2")
except KeyError as e:
    escaped = repr(e)

applied = {}
for cid, tags in good.pending.items():
    updated = await tools.tag_customer(customer_id=cid, tags=tags)
    applied[cid] = updated["tags"]
return {"applied": applied, "good": good.log, "bad": bad.log, "bad_pending": bad.pending, "escaped": escaped, "boom": boom.log}

# description: Capture a printed report with redirect_stdout, use nullcontext for optional locking and closing() for a resource
# value: {"captured": ["id  tier        name", "c1  enterprise  Ada Lovelace", "c2  pro         Grace Hopper"], "cursor_closed": true, "rows": ["c1", "c2", "c4", "c6"], "locked": [true, false], "first": "Ada Lovelace"}
# logs: ["captured 7 lines"]
import contextlib
import io
import asyncio


class Cursor:
    def __init__(self):
        self.closed = False
        self.rows = []

    def close(self):
        self.closed = True


def report(customers):
    print(f"{'id':<4}{'tier':<12}name")
    for c in customers:
        print(f"{c['id']:<4}{c['tier']:<12}{c['name']}")


customers = await tools.list_customers()
buf = io.StringIO()
with contextlib.redirect_stdout(buf):
    report(customers)
captured = buf.getvalue().splitlines()

with contextlib.closing(Cursor()) as cur:
    cur.rows.extend(c["id"] for c in customers if c["tier"] != "free")

lock = asyncio.Lock()
results = []
for use_lock in (True, False):
    cm = lock if use_lock else contextlib.nullcontext()
    async with cm:
        results.append(lock.locked())

with contextlib.nullcontext(customers[0]) as first:
    first_name = first["name"]

print("captured", len(captured), "lines")
return {"captured": captured[:3], "cursor_closed": cur.closed, "rows": cur.rows, "locked": results, "first": first_name}

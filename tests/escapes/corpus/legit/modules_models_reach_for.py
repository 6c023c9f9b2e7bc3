# value: {"csv": [["sku", "qty"], ["a-1", "3"]], "dict_rows": [{"sku": "a-1", "qty": "3"}], "sha": "ba7816bf", "uuid": [36, 4], "pprint": "{'a': 1, 'b': [1, 2]}", "ns": [1, 2], "groups": [["bad"], 1], "order": [1, 2, 3], "first": [1], "redirected": "inside\n", "getters": [1, [1, 1], 2], "year": "1970", "text": "hello\nworld"}
import asyncio
import contextlib
import csv
import hashlib
import io
import operator
import pprint
import textwrap
import time
import types
import uuid

buffer = io.StringIO()
writer = csv.writer(buffer)
writer.writerow(["sku", "qty"])
writer.writerow(["a-1", 3])
rows = list(csv.reader(io.StringIO(buffer.getvalue())))
dict_rows = list(csv.DictReader(io.StringIO(buffer.getvalue())))

identifier = uuid.uuid4()
ns = types.SimpleNamespace(a=1)
ns.b = 2

async def fail():
    raise ValueError("bad")

async def ok():
    return 1

try:
    async with asyncio.TaskGroup() as group:
        group.create_task(fail())
        group.create_task(ok())
except* ValueError as errors:
    caught = [str(e) for e in errors.exceptions]
except* KeyError:
    caught = ["wrong"]

async def after(n):
    await asyncio.sleep(0.01 * n)
    return n

async def after_passes(n):
    # n passes of the event loop: the order the calls finish in does not
    # hang on how fast the machine is (10 ms sleeps apart could swap under load).
    for _ in range(n):
        await asyncio.sleep(0)
    return n

order = [await c for c in asyncio.as_completed([after_passes(3), after_passes(1), after_passes(2)])]
fast = asyncio.create_task(after(1))
slow = asyncio.create_task(after(100))
done, pending = await asyncio.wait([fast, slow], return_when=asyncio.FIRST_COMPLETED)
for task in pending:
    task.cancel()

captured = io.StringIO()
with contextlib.redirect_stdout(captured):
    print("inside")

class Item:
    def __init__(self):
        self.qty = 1
        self.parent = self

item = Item()
return {
    "csv": rows,
    "dict_rows": dict_rows,
    "sha": hashlib.sha256(b"abc").hexdigest()[:8],
    "uuid": [len(str(identifier)), identifier.version],
    "pprint": pprint.pformat({"b": [1, 2], "a": 1}),
    "ns": [ns.a, ns.b],
    "groups": [caught, len(done)],
    "order": order,
    "first": [t.result() for t in done],
    "redirected": captured.getvalue(),
    "getters": [
        operator.attrgetter("parent.qty")(item),
        list(operator.attrgetter("qty", "parent.qty")(item)),
        operator.methodcaller("count", 1)([1, 2, 1]),
    ],
    "year": time.strftime("%Y", time.gmtime(0)),
    "text": textwrap.dedent("    hello\n    world"),
}

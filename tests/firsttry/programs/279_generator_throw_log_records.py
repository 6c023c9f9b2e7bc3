# description: Parse multi-line log records with a generator-based parser that can be reset mid-stream
# value: {"records": 11, "first": "2024-06-15 08:01:12", "errors_with_trace": [["billing", 2], ["api", 0], ["billing", 2], ["api", 0]], "closed": true}
import itertools
import re
from typing import Generator

HEAD = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d) (\w+)\s+(\w+)\s+(.*)$")

class Reset(Exception):
    pass

def records() -> Generator[dict | None, str, None]:
    current: dict | None = None
    done: dict | None = None
    while True:
        try:
            line = yield done
        except Reset:
            current, done = None, None
            continue
        done = None
        if m := HEAD.match(line):
            done, current = current, {"at": m[1], "level": m[2], "service": m[3], "text": m[4], "extra": []}
        elif current is not None and line.startswith("  "):
            current["extra"].append(line.strip())
        elif line == "<END>":
            done, current = current, None

raw = (await tools.fetch_logs()).splitlines()
stream = list(itertools.chain.from_iterable(
    [line] + (["  at charge_card()", "  at process_payment()"] if " ERROR billing" in line else [])
    for line in raw
))
parser = records()
next(parser)
out: list[dict] = []
for i, line in enumerate(stream + ["<END>"]):
    if i == 3:
        parser.throw(Reset)
    if (rec := parser.send(line)) is not None:
        out.append(rec)
parser.close()
try:
    parser.send("late line")
    closed = False
except StopIteration:
    closed = True
errors = [r for r in out if r["level"] == "ERROR"]
return {
    "records": len(out),
    "first": out[0]["at"],
    "errors_with_trace": [(r["service"], len(r["extra"])) for r in errors],
    "closed": closed,
}

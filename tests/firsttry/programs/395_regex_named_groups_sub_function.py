# description: Parse application logs with named-group regexes and tag user ids with re.sub and a function
# value: {"parsed": 12, "levels": {"INFO": 6, "ERROR": 4, "WARN": 2}, "services": {"api": 9, "billing": 3}, "sample": ["INFO  GET /orders/o-1001 200 12ms user=c#001", "INFO  GET /orders/o-1002 200 15ms user=c#001", "WARN  GET /customers/c9 404 3ms user=c#002", "ERROR charge failed card_declined amount=45.00 user=c#003", "INFO  POST /tickets 201 40ms user=c#004", "ERROR GET /orders/o-1005 500 250ms user=c#002"], "first_split": ["2024-06-15", "08:01:12"]}
import re
from collections import Counter

logs = await tools.fetch_logs()
LINE = re.compile(
    r"""^(?P<ts>\S+\ \S+)\s+
        (?P<level>[A-Z]+)\s+
        (?P<service>\w+)\s*
        (?P<rest>.*)$""",
    re.VERBOSE,
)
EMAIL = re.compile(r"user=(?P<user>c)(?P<domain>\d+)")
NUM = re.compile(r"\b(\d+(?:\.\d+)?)(ms|s)\b")


def redact(m: re.Match) -> str:
    user = m.group("user")
    return f"user={user}#{int(m['domain']):03d}"


def to_ms(m: re.Match) -> str:
    value, unit = m.groups()
    ms = float(value) * (1000 if unit == "s" else 1)
    return f"{ms:g}ms"


levels = Counter()
services = Counter()
redacted = []
parsed = 0
for raw in logs.splitlines():
    m = LINE.match(raw)
    if not m:
        continue
    parsed += 1
    d = m.groupdict()
    levels[d["level"]] += 1
    services[d["service"]] += 1
    text, n = EMAIL.subn(redact, d["rest"])
    text = NUM.sub(to_ms, text)
    if n or d["level"] in ("ERROR", "WARN"):
        redacted.append(f"{d['level']:<5} {text}")

first_line = logs.splitlines()[0] if logs else ""
return {
    "parsed": parsed,
    "levels": dict(levels.most_common()),
    "services": dict(services),
    "sample": redacted[:6],
    "first_split": re.split(r"\s+", first_line, maxsplit=2)[:2],
}

# description: Classify log lines parsed into dataclasses with match class patterns
# value: ["ok", "ok", "missing", "billing:card_declined:45", "ok", "failure", "ok", "billing:insufficient_funds:149", "ok", "ok", "slow-failure"]
import re
from dataclasses import dataclass

@dataclass
class Request:
    method: str
    path: str
    status: int
    ms: int

@dataclass
class BillingFailure:
    reason: str
    amount: float

LINE = re.compile(r"^\S+ \S+ (?P<level>\w+)\s+(?P<service>\w+)\s+(?P<rest>.*) user=(?P<user>\w+)$")
parsed = []
for m in map(LINE.match, (await tools.fetch_logs()).splitlines()):
    rest = m["rest"].split()
    if m["service"] == "api":
        parsed.append(Request(rest[0], rest[1], int(rest[2]), int(rest[3].removesuffix("ms"))))
    elif rest[:2] == ["charge", "failed"]:
        parsed.append(BillingFailure(rest[2], float(rest[3].split("=")[1])))

labels = []
for item in parsed:
    match item:
        case Request(status=s, ms=ms) if s >= 500 and ms > 1000:
            labels.append("slow-failure")
        case Request(status=500 | 503):
            labels.append("failure")
        case Request(method="GET", status=404):
            labels.append("missing")
        case Request():
            labels.append("ok")
        case BillingFailure(reason=r, amount=a):
            labels.append(f"billing:{r}:{a:.0f}")
return labels

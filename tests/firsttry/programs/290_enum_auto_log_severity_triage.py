# description: Triage the raw application logs by severity and service and list the noisiest users
# value: {"levels": {"ERROR": 4, "WARN": 2, "INFO": 6}, "services": {"api": 9, "billing": 3}, "at_risk": [["c2", 7], ["c3", 7], ["c6", 4]], "most_common_level": "INFO", "values": [1, 2, 3, 4]}
# logs: ["DEBUG=0 INFO=6 WARN=2 ERROR=4", "api       9 <Service.API: 'api'>", "billing   3 <Service.BILLING: 'billing'>"]
import re
from collections import Counter
from enum import Enum, IntEnum, auto

class Severity(IntEnum):
    DEBUG = auto()
    INFO = auto()
    WARN = auto()
    ERROR = auto()

class Service(Enum):
    API = "api"
    BILLING = "billing"

LINE = re.compile(
    r"^(?P<date>\d{4}-\d{2}-\d{2}) (?P<time>\d{2}:\d{2}:\d{2}) (?P<level>[A-Z]+)\s+"
    r"(?P<service>\w+)\s+(?P<rest>.*?)\s+user=(?P<user>c\d+)$",
    re.MULTILINE,
)

text = await tools.fetch_logs()
by_level = Counter()
by_service = Counter()
users_at_risk = Counter()
for m in LINE.finditer(text):
    sev = Severity[m["level"]]
    svc = Service(m.group("service"))
    by_level[sev] += 1
    by_service[svc] += 1
    if sev >= Severity.WARN:
        users_at_risk[m["user"]] += int(sev)

print(" ".join(f"{s.name}={by_level[s]}" for s in Severity))
for svc, n in by_service.most_common():
    print(f"{svc.value:<8}{n:>3} {svc!r}")
worst = max(by_level, key=lambda s: (by_level[s], s))
return {
    "levels": {s.name: by_level[s] for s in sorted(by_level, reverse=True)},
    "services": {s.name.lower(): n for s, n in by_service.items()},
    "at_risk": users_at_risk.most_common(3),
    "most_common_level": worst.name,
    "values": [s.value for s in Severity],
}
